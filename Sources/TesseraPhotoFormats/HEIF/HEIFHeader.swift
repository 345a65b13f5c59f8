import TesseraGeometry
import TesseraUtilities

/// What a HEIC or AVIF file's `meta` box says before anything is decoded: the primary image's
/// size as shown, and where its Exif item lies (usually in `mdat`, possibly past the first
/// bytes read).
///
/// The size is the one libvips' heifload reports: libheif turns the image by its `irot` and
/// crops it by its `clap` while decoding (in the order the properties are associated), and
/// heifload then drops EXIF's orientation, so EXIF orientation is never applied on top.
///
/// - Complexity: O(bytes of `meta`), bounded by the `FeedLimits.maxHEIF…` limits.
package struct HEIFHeader: Equatable, Sendable {
  /// Width × height as the primary image is shown, within `FeedLimits`; nil when unknown.
  package var pixelSize: PixelSize?
  /// Where the primary image's Exif item lies in the file (offset from the file's start).
  package var exif: HEIFExtent?
  /// Where the primary image's XMP packet lies (a `mime` item of XMP's content type), as
  /// exiftool, Lightroom and phones write it.
  package var xmp: HEIFExtent?

  package init(pixelSize: PixelSize? = nil, exif: HEIFExtent? = nil, xmp: HEIFExtent? = nil) {
    self.pixelSize = pixelSize
    self.exif = exif
    self.xmp = xmp
  }

  /// The header of the HEIF file whose first bytes are `bytes`; nil when they are not a HEIF
  /// file (`ImageSignature` says HEIF or AVIF). A HEIF file whose `meta` cannot be read has
  /// an empty header: it is still HEIF, whose EXIF orientation must not turn it.
  package init?(bytes: [UInt8]) {
    guard let format = ImageSignature(sniffing: bytes), format == .heif || format == .avif else {
      return nil
    }
    self.init()
    let top = ISOBoxes.children(of: 0..<bytes.count, in: bytes, depth: 0)
    guard let meta = top.first(where: { $0.type == "meta" }) else { return }
    let items = HEIFItems(meta: meta, in: bytes)
    guard let primary = items.primary else { return }
    pixelSize = Self.shownSize(of: primary, items)
    exif = Self.item(
      describing: primary, among: items.types.filter { $0.type == "Exif" }.map(\.id), items
    )
    .flatMap { items.locations[$0] }
    xmp = Self.item(describing: primary, among: items.xmpItems, items).flatMap {
      items.locations[$0]
    }
  }

  /// Whether `bytes` (a HEIF file's first bytes, from its start) end inside a top-level box
  /// before any `meta`: then the offset of the box after it, where a phone that writes its
  /// media data first (Samsung) put `meta`; nil otherwise, or past `fileSize`.
  package static func boxAfterPrefix(_ bytes: [UInt8], from offset: Int = 0, fileSize: Int) -> Int?
  {
    let top = ISOBoxes.children(of: 0..<bytes.count, in: bytes, depth: 0)
    guard !top.contains(where: { $0.type == "meta" }), let last = top.last, !last.complete,
      last.declaredEnd < UInt64(fileSize - offset)
    else { return nil }
    return offset + Int(last.declaredEnd)
  }

  /// The file's `ftyp` box, when it is the first: what makes bytes read further on a HEIF
  /// file again for `init(bytes:)`.
  package static func fileType(_ bytes: [UInt8]) -> [UInt8]? {
    guard let first = ISOBoxes.children(of: 0..<bytes.count, in: bytes, depth: 0).first,
      first.type == "ftyp", first.complete
    else { return nil }
    return Array(bytes[0..<first.payload.upperBound])
  }

  /// The size `item` shows at: its `ispe` (or, for a derived item without one, its source's,
  /// following `dimg` at most `FeedLimits.maxHEIFDerivations` steps, never in a loop), turned
  /// and cropped by each item's transformations from the source up.
  static func shownSize(of item: Int, _ items: HEIFItems) -> PixelSize? {
    func stored(_ item: Int) -> (width: Int, height: Int)? {
      for case .size(let width, let height) in items.properties(of: item) {
        return (width, height)
      }
      return nil
    }
    var chain = [item]
    while stored(chain[chain.count - 1]) == nil {
      let current = chain[chain.count - 1]
      guard chain.count <= FeedLimits.maxHEIFDerivations,
        let source = items.references.first(where: { $0.type == "dimg" && $0.from == current })?
          .to.first,
        !chain.contains(source)
      else { return nil }
      chain.append(source)
    }
    guard var size = stored(chain[chain.count - 1]) else { return nil }
    for item in chain.reversed() {
      for property in items.properties(of: item) {
        switch property {
        case .rotation(let quarterTurns) where quarterTurns % 2 == 1:
          size = (size.height, size.width)
        case .cleanAperture(let width, let height):
          size = (min(width, size.width), min(height, size.height))
        default: break
        }
      }
    }
    return PixelSize(validatingWidth: size.width, height: size.height)
  }

  /// The item of `candidates` (Exif or XMP items) that describes `primary` (`cdsc`), else the
  /// first listed.
  static func item(describing primary: Int, among candidates: [Int], _ items: HEIFItems) -> Int? {
    let describing = candidates.first { id in
      items.references.contains { $0.type == "cdsc" && $0.from == id && $0.to.contains(primary) }
    }
    return describing ?? candidates.first
  }

  /// The TIFF structure in an Exif item's bytes: they start with a 4-byte big-endian offset
  /// from their fifth byte to the TIFF header (ISO/IEC 23008-12 A.2.1), which older writers
  /// left 0 before an `Exif\0\0` marker; nil when no TIFF header is where it is said to be.
  package static func tiff(inExifItem payload: [UInt8]) -> [UInt8]? {
    var cursor = ByteCursor(payload, range: 0..<payload.count)
    guard let offset = cursor.u32() else { return nil }
    let marker: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]
    for start in [offset, 6] where start <= payload.count - 4 - 8 {
      var header = ByteCursor(payload, range: (4 + start)..<payload.count)
      if start == 6, !payload[4..<10].elementsEqual(marker) { continue }
      if let magic = header.u32(), magic == 0x4949_2A00 || magic == 0x4D4D_002A {
        return Array(payload[(4 + start)...])
      }
    }
    return nil
  }
}
