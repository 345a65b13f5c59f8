import Foundation

/// What a local photo's first bytes tell: its pixel size as shown (EXIF orientations 5…8
/// swap the sides, as libvips' thumbnail turns the picture upright) and its EXIF facts.
public struct PhotoHeader: Sendable, Equatable {
  /// Width × height as the photo is shown, when the header states it within `FeedLimits`.
  public var pixelSize: PixelSize?
  public var exif: ExifFacts?

  public init(pixelSize: PixelSize? = nil, exif: ExifFacts? = nil) {
    self.pixelSize = pixelSize
    self.exif = exif
  }

  /// The header in `bytes` (a file's first bytes). O(bytes looked at), bounded by
  /// `FeedLimits.maxHeaderBytes`.
  public init(bytes: [UInt8]) {
    exif = ExifReader.facts(bytes)
    let stored = ImageHeader.pixelSize(bytes)
    if let stored, exif?.swapsSides == true {
      pixelSize = PixelSize(width: stored.height, height: stored.width)
    } else {
      pixelSize = stored
    }
  }
}

/// Reads photo headers: the real file system, or a test's table.
public protocol PhotoHeaderReading: Sendable {
  /// The header of the file at `path`, nil when it cannot be read. Blocking.
  func header(ofFileAt path: String) -> PhotoHeader?
}

/// Reads at most `FeedLimits.maxPhotoHeaderBytes` of each file through `LocalFile` (no
/// symlinks, no FIFOs, size checked on the open descriptor).
public struct LocalPhotoHeaderReader: PhotoHeaderReading {
  public init() {}

  public func header(ofFileAt path: String) -> PhotoHeader? {
    let read = LocalFile.readPrefix(
      path: path, limit: FeedLimits.maxPhotoHeaderBytes, maxFileSize: FeedLimits.maxLocalFileBytes)
    guard case .success(let prefix) = read else { return nil }
    return PhotoHeader(bytes: prefix.bytes)
  }
}
