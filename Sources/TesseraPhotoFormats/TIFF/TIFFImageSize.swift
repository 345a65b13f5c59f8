import TesseraGeometry
import TesseraUtilities

/// A TIFF file's picture size: ImageWidth (256) and ImageLength (257) of its first IFD that
/// holds the full-resolution image. An IFD whose NewSubfileType (254) has bit 0 set holds a
/// reduced-resolution copy (a scanner's preview, a pyramid's level): the chain is followed
/// past it. The size is the stored one; the orientation tag is not applied.
///
/// libtiff writes IFD0 after the image data, so in a TIFF that libtiff (libvips, GIMP,
/// ImageMagick) wrote the size is at the file's end: the header reader reads it there
/// (`ExifStructure(tiffHead:window:at:fileLength:)`).
///
/// - Complexity: O(IFDs looked at × their entries), at most ``maxIFDs`` ×
///   `ExifStructure.maxIFDEntries`.
package enum TIFFImageSize {
  /// IFDs looked at before giving up: a chain that loops ends here.
  package static let maxIFDs = 8

  private static let newSubfileType = 254
  private static let imageWidth = 256
  private static let imageLength = 257

  /// The size of the first full-resolution image in `tiff`, or nil when no IFD within
  /// ``maxIFDs`` states one that `PixelSize(validatingWidth:height:)` accepts.
  package static func pixelSize(in tiff: ExifStructure) -> PixelSize? {
    var offset = tiff.firstIFD
    var seen: Set<Int> = []
    while let ifd = offset, seen.count < maxIFDs, seen.insert(ifd).inserted {
      let entries = tiff.entries(at: ifd)
      func value(_ tag: Int) -> Int? {
        entries.first { $0.tag == tag }.flatMap(tiff.integer)
      }
      let isReduced = (value(newSubfileType) ?? 0) & 1 == 1
      if !isReduced, let width = value(imageWidth), let height = value(imageLength) {
        return PixelSize(validatingWidth: width, height: height)
      }
      offset = tiff.nextIFD(after: ifd)
    }
    return nil
  }
}
