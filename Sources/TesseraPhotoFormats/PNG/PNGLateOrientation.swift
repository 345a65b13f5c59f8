import Foundation
import TesseraUtilities

/// The EXIF orientation of a PNG whose `eXIf` chunk follows its pixels. PNG 1.5 allows eXIf
/// after IDAT, and exiftool and browsers turn such a file; libvips reads only the chunks
/// before IDAT (so it turns a PNG whose eXIf comes first, and not this one): Tessera's decoder
/// turns it itself by this.
///
/// - Complexity: O(chunks before the first IDAT), at most `MetadataChunks.maxChunks`, plus
///   the tail search of `PNGChunks.tailMetadata(_:)` over the last `PNGChunks.maxTailBytes`.
package enum PNGLateOrientation {
  private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// The orientation (2…8) of an eXIf chunk after the first IDAT of the PNG `data`; nil for
  /// anything else: no PNG, an eXIf before the pixels (libvips reads that one), none at all,
  /// an upright one, or chunks that do not lead to IDAT.
  package static func orientation(_ data: Data) -> Int? {
    data.withUnsafeBytes { raw -> Int? in
      let bytes = raw.bindMemory(to: UInt8.self)
      guard bytes.count >= 8 + 12, bytes.starts(with: signature) else { return nil }
      func u32(_ at: Int) -> Int { (at..<at + 4).reduce(0) { $0 << 8 | Int(bytes[$1]) } }
      var index = 8
      var steps = 0
      while true {
        guard steps < MetadataChunks.maxChunks, bytes.count - index >= 12 else { return nil }
        steps += 1
        let length = u32(index)
        let type = u32(index + 4)
        if type == fourCC("IDAT") { break }
        if type == fourCC("eXIf") { return nil }
        // The length was at most 2^32 − 1 and is compared before it is added.
        guard length <= bytes.count - index - 12 else { return nil }
        index += 12 + length
      }
      let tail = Array(bytes.suffix(PNGChunks.maxTailBytes))
      guard let tiff = PNGChunks.tailMetadata(tail).tiff,
        let orientation = ExifReader.facts(tiff)?.orientation, (2...8).contains(orientation)
      else { return nil }
      return orientation
    }
  }

  private static func fourCC(_ text: StaticString) -> Int {
    text.withUTF8Buffer { $0.reduce(0) { $0 << 8 | Int($1) } }
  }
}
