import TesseraPhotoFormats
import TesseraUtilities

extension LocalPhotoHeaderReader {
  /// How the photo at `path` was taken (`ShootingFacts`), for the info panel: its first
  /// `FeedLimits.maxHeaderBytes`, and a HEIF file's Exif item wherever it lies (at most
  /// `FeedLimits.maxHEIFExifBytes`), read through the same checks as its header (no link
  /// followed, no FIFO, size checked; a file that changed in between gives nothing). Nil when
  /// the file cannot be read or records none of it. Blocking.
  /// - Complexity: O(bytes read), bounded by those limits.
  public func shootingFacts(ofFileAt path: String) -> ShootingFacts? {
    let read = LocalFile.readPrefix(
      path: path, limit: FeedLimits.maxHeaderBytes, maxFileSize: FeedLimits.maxLocalFileBytes)
    guard case .success(let prefix) = read else { return nil }
    guard let heif = HEIFHeader(bytes: prefix.bytes) else {
      return ShootingFacts.read(photo: prefix.bytes)
    }
    guard
      let range = heif.exif?.range(inFileOf: prefix.size, limit: FeedLimits.maxHEIFExifBytes)
    else { return nil }
    let item =
      range.upperBound <= prefix.bytes.count
      ? Array(prefix.bytes[range])
      : Self.read(path, offset: range.lowerBound, count: range.count, sameAs: prefix)
    return item.flatMap(HEIFHeader.tiff(inExifItem:)).flatMap(ExifStructure.init(photo:))
      .flatMap(ShootingFacts.read(in:))
  }
}
