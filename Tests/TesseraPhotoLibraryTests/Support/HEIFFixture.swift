import TesseraPhotoFormats
import TesseraUtilities

/// ISO base media boxes built by hand, for the HEIF header's forged and hostile cases.
enum Box {
  static func u16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
  static func u32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(value >> (24 - 8 * $0) & 0xFF) } }
  static func u64(_ value: UInt64) -> [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64($0))) }
  }

  /// A box with a 32-bit size.
  static func plain(_ type: String, _ payload: [UInt8]) -> [UInt8] {
    u32(8 + payload.count) + Array(type.utf8) + payload
  }

  /// A full box: version and 24 flag bits first.
  static func full(
    _ type: String, version: Int = 0, flags: Int = 0, _ payload: [UInt8]
  )
    -> [UInt8]
  {
    plain(type, [UInt8(version)] + Array(u32(flags).dropFirst()) + payload)
  }

  static func ftyp(_ brand: String = "heic") -> [UInt8] {
    plain("ftyp", Array(brand.utf8) + u32(0) + Array("mif1".utf8) + Array(brand.utf8))
  }

  static func ispe(_ width: Int, _ height: Int) -> [UInt8] {
    full("ispe", u32(width) + u32(height))
  }
  static func irot(_ quarterTurns: Int) -> [UInt8] { plain("irot", [UInt8(quarterTurns)]) }
  static func clap(width: Int, height: Int) -> [UInt8] {
    plain("clap", u32(width) + u32(1) + u32(height) + u32(1) + u32(0) + u32(1) + u32(0) + u32(1))
  }
}

/// A small HEIF file as libheif lays one out (ftyp, meta, mdat), every part replaceable: item
/// 1 is the primary `hvc1` image, item 2 its `Exif` (described by `cdsc`), stored in `mdat`.
struct HEIFFixture {
  var primary = 1
  var items: [(id: Int, type: String)] = [(1, "hvc1"), (2, "Exif")]
  /// `ipco`'s boxes; `associations` index them from 1.
  var properties: [[UInt8]] = [Box.ispe(4000, 3000)]
  var associations: [(item: Int, properties: [Int])] = [(1, [1])]
  var references: [(type: String, from: Int, to: [Int])] = [("cdsc", 2, [1])]
  /// The Exif item: a 4-byte offset to the TIFF header, then EXIF as a camera writes it.
  var exifItem: [UInt8] = Box.u32(0) + ExifWriter(orientation: 6).tiff
  /// Raw `iloc` box; nil builds one placing item 1 and the Exif item in `mdat`.
  var iloc: [UInt8]?
  /// Bytes between `meta` and `mdat` (a `free` box), pushing the Exif item further on.
  var padding = 0
  /// Bytes of media data after the Exif item when `mdat` comes before `meta`, as Samsung's
  /// phones write (nil: libheif's order, `meta` first).
  var mediaBeforeMeta: Int?

  var bytes: [UInt8] {
    if let media = mediaBeforeMeta {
      let exifOffset = Box.ftyp().count + 8 + 16
      let data =
        [UInt8](repeating: 0xAB, count: 16) + exifItem + [UInt8](repeating: 0xCD, count: media)
      return Box.ftyp() + Box.plain("mdat", data) + meta(exifOffset: exifOffset)
    }
    let placeholder = meta(exifOffset: 0)
    let free = padding > 0 ? Box.plain("free", [UInt8](repeating: 0, count: padding)) : []
    let mdatStart = Box.ftyp().count + placeholder.count + free.count + 8
    let media = [UInt8](repeating: 0xAB, count: 16) + exifItem
    return Box.ftyp() + meta(exifOffset: mdatStart + 16) + free + Box.plain("mdat", media)
  }

  private func meta(exifOffset: Int) -> [UInt8] {
    let hdlr = Box.full(
      "hdlr", Box.u32(0) + Array("pict".utf8) + Box.u32(0) + Box.u32(0) + Box.u32(0) + [0])
    let infos = items.map {
      Box.full("infe", version: 2, Box.u16($0.id) + Box.u16(0) + Array($0.type.utf8) + [0])
    }
    let iinf = Box.full("iinf", Box.u16(items.count) + infos.joined())
    let location =
      iloc
      ?? Box.full(
        "iloc",
        [0x44, 0x00] + Box.u16(2)
          + Box.u16(1) + Box.u16(0) + Box.u16(1) + Box.u32(exifOffset - 16) + Box.u32(16)
          + Box.u16(2) + Box.u16(0) + Box.u16(1) + Box.u32(exifOffset) + Box.u32(exifItem.count))
    let refs = references.map { reference in
      Box.plain(
        reference.type,
        Box.u16(reference.from) + Box.u16(reference.to.count) + reference.to.flatMap(Box.u16))
    }
    let iref = Box.full("iref", Array(refs.joined()))
    let entries = associations.map { association in
      Box.u16(association.item) + [UInt8(association.properties.count)]
        + association.properties.map { UInt8($0 | 0x80) }
    }
    let ipma = Box.full("ipma", Box.u32(associations.count) + entries.joined())
    let iprp = Box.plain("iprp", Box.plain("ipco", Array(properties.joined())) + ipma)
    return Box.full(
      "meta", hdlr + Box.full("pitm", Box.u16(primary)) + location + iinf + iref + iprp)
  }
}
