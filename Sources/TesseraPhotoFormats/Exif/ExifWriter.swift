/// EXIF written from the TIFF 6.0 / EXIF 2.3 layout: IFD0 with Model, Orientation and the Exif
/// IFD pointer, the Exif IFD with DateTimeOriginal, IFD1 with an embedded thumbnail; spliced
/// into a JPEG as its APP1 segment, or alone as a TIFF header. The readers' tests forge files
/// with it, and `tessera bench folder` gives its generated photos what a camera writes.
package struct ExifWriter {
  package var bigEndian: Bool
  package var model: String?
  package var orientation: Int?
  package var dateTaken: String?
  package var digitized: String?
  /// A JPEG stored in IFD1 (Compression 6, JPEGInterchangeFormat and its length), as cameras
  /// embed a small preview of the photo.
  package var thumbnail: [UInt8]?

  package init(
    bigEndian: Bool = false, model: String? = "Pixel 8", orientation: Int? = 6,
    dateTaken: String? = "2024:05:01 14:30:00", digitized: String? = nil,
    thumbnail: [UInt8]? = nil
  ) {
    self.bigEndian = bigEndian
    self.model = model
    self.orientation = orientation
    self.dateTaken = dateTaken
    self.digitized = digitized
    self.thumbnail = thumbnail
  }

  private func u16(_ value: Int) -> [UInt8] { RawEndian(bigEndian: bigEndian).bytes16(value) }

  private func u32(_ value: Int) -> [UInt8] { RawEndian(bigEndian: bigEndian).bytes32(value) }

  private func ascii(_ text: String) -> [UInt8] { Array(text.utf8) + [0] }

  /// The TIFF structure. Byte offsets of the entries are known, so tests can forge them:
  /// IFD0 starts at 8; its entries follow at 10, 22, 34 (in the order model, orientation,
  /// pointer, each present one taking the next slot).
  package var tiff: [UInt8] {
    var ifd0: [(tag: Int, type: Int, count: Int, value: [UInt8]?, data: [UInt8])] = []
    if let model {
      // TIFF keeps a value of four bytes or fewer in the entry itself, padded.
      let bytes = ascii(model)
      let inline = bytes.count <= 4 ? bytes + [UInt8](repeating: 0, count: 4 - bytes.count) : nil
      ifd0.append((0x0110, 2, bytes.count, inline, inline == nil ? bytes : []))
    }
    if let orientation { ifd0.append((0x0112, 3, 1, u16(orientation) + [0, 0], [])) }
    var exif: [(tag: Int, data: [UInt8])] = []
    if let dateTaken { exif.append((0x9003, ascii(dateTaken))) }
    if let digitized { exif.append((0x9004, ascii(digitized))) }
    let hasExif = !exif.isEmpty
    let ifd0Count = ifd0.count + (hasExif ? 1 : 0)
    var dataOffset = 8 + 2 + ifd0Count * 12 + 4
    var entries: [UInt8] = []
    var data: [UInt8] = []
    for entry in ifd0 {
      entries += u16(entry.tag) + u16(entry.type) + u32(entry.count)
      if let value = entry.value {
        entries += value
      } else {
        entries += u32(dataOffset)
        data += entry.data
        dataOffset += entry.data.count
      }
    }
    let exifOffset = dataOffset
    if hasExif { entries += u16(0x8769) + u16(4) + u32(1) + u32(exifOffset) }
    var exifIFD: [UInt8] = u16(exif.count)
    var exifData: [UInt8] = []
    var exifDataOffset = exifOffset + 2 + exif.count * 12 + 4
    for entry in exif {
      exifIFD += u16(entry.tag) + u16(2) + u32(entry.data.count) + u32(exifDataOffset)
      exifData += entry.data
      exifDataOffset += entry.data.count
    }
    exifIFD += u32(0)
    let header: [UInt8] = (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]) + u16(42) + u32(8)
    let body = data + (hasExif ? exifIFD + exifData : [])
    guard let thumbnail else { return header + u16(ifd0Count) + entries + u32(0) + body }
    // IFD1 after everything else, the thumbnail right after it.
    let ifd1 = 8 + 2 + ifd0Count * 12 + 4 + body.count
    let thumbnailOffset = ifd1 + 2 + 3 * 12 + 4
    let ifd1Bytes =
      u16(3) + u16(0x0103) + u16(3) + u32(1) + u16(6) + [0, 0]
      + u16(0x0201) + u16(4) + u32(1) + u32(thumbnailOffset)
      + u16(0x0202) + u16(4) + u32(1) + u32(thumbnail.count) + u32(0)
    return header + u16(ifd0Count) + entries + u32(ifd1) + body + ifd1Bytes + thumbnail
  }

  /// A JPEG of `width`×`height` (as stored) whose APP1 holds `tiff`, then a frame header.
  package func jpeg(width: Int = 4000, height: Int = 3000, tiff: [UInt8]? = nil) -> [UInt8] {
    let app1 = Array("Exif".utf8) + [0, 0] + (tiff ?? self.tiff)
    let length = app1.count + 2
    let frame: [UInt8] =
      [0xFF, 0xC0, 0, 17, 8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8)]
      + [UInt8(width & 0xFF), 3] + [UInt8](repeating: 0, count: 9)
    return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + app1 + frame
      + [0xFF, 0xDA, 0, 8] + [UInt8](repeating: 0, count: 6) + [0xFF, 0xD9]
  }
}

extension ExifWriter {
  /// A real, decodable JPEG with this EXIF: `jpeg`'s APP1 segment inserted after its SOI.
  package func splicing(into jpeg: [UInt8]) -> [UInt8] {
    let app1 = Array("Exif".utf8) + [0, 0] + tiff
    let length = app1.count + 2
    return Array(jpeg.prefix(2)) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + app1
      + jpeg.dropFirst(2)
  }
}
