import TesseraUtilities

/// A JPEG's XMP and IPTC blocks: the APP1 segment that starts `http://ns.adobe.com/xap/1.0/\0`
/// (the XMP packet, ``xmpPacket(_:)``; extended XMP in further segments is not read), and the APP13 `Photoshop
/// 3.0\0` segment's image resource 0x0404 (IPTC-IIM). Read only when EXIF gives no date.
///
/// - Complexity: O(segments before the scan), at most `JPEGHeaderSegments.maxSegments`, plus
///   O(image resources), at most ``maxResources``.
struct JPEGMetadataSegments {
  static let maxResources = 256

  var xmp: [UInt8]?
  var iim: [UInt8]?

  private static let xmpMarker = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
  private static let photoshopMarker = Array("Photoshop 3.0\0".utf8)
  private static let xmpNamespace = Array("ns.adobe.com/xap/1.0/\0".utf8)

  /// The packet of an XMP APP1 payload: after `http://ns.adobe.com/xap/1.0/\0`, or after a
  /// header a writer mangled around a whole namespace (`XMP\0://ns.adobe.com/xap/1.0/\0`, in
  /// Getty Images' files), which exiftool reads too. The namespace is looked for only where a
  /// header would end, so an Exif or extended-XMP segment never matches.
  static func xmpPacket(_ payload: ArraySlice<UInt8>) -> [UInt8]? {
    if payload.starts(with: xmpMarker) { return Array(payload.dropFirst(xmpMarker.count)) }
    let head = payload.prefix(xmpMarker.count + 8)
    guard head.count >= xmpNamespace.count else { return nil }
    for start in head.startIndex...(head.endIndex - xmpNamespace.count)
    where head[start..<start + xmpNamespace.count].elementsEqual(xmpNamespace) {
      return Array(payload[(start + xmpNamespace.count)...])
    }
    return nil
  }

  init(_ bytes: [UInt8]) {
    for segment in JPEGHeaderSegments(bytes) where xmp == nil || iim == nil {
      let payload = bytes[segment.payload]
      if segment.marker == 0xE1, xmp == nil, let packet = Self.xmpPacket(payload) {
        xmp = packet
      } else if segment.marker == 0xED, iim == nil, payload.starts(with: Self.photoshopMarker) {
        iim = Self.iptc(inResources: payload.dropFirst(Self.photoshopMarker.count))
      }
    }
  }

  /// The data of image resource 0x0404 among Photoshop's `8BIM` resources: signature, id,
  /// a Pascal name padded to an even length, a 4-byte size, the data padded to even.
  static func iptc(inResources bytes: ArraySlice<UInt8>) -> [UInt8]? {
    let bytes = Array(bytes)
    var index = 0
    var resources = 0
    while index <= bytes.count - 12, resources < maxResources {
      resources += 1
      guard bytes[index..<index + 4].elementsEqual(Array("8BIM".utf8)) else { return nil }
      let id = Int(bytes[index + 4]) << 8 | Int(bytes[index + 5])
      let nameLength = Int(bytes[index + 6])
      let nameField = (nameLength + 1 + 1) & ~1  // length byte and name, padded to even
      let sizeAt = index + 6 + nameField
      guard sizeAt <= bytes.count - 4 else { return nil }
      let size = bytes[sizeAt..<sizeAt + 4].reduce(0) { $0 << 8 | Int($1) }
      let dataAt = sizeAt + 4
      guard size <= bytes.count - dataAt else { return nil }
      if id == 0x0404 { return Array(bytes[dataAt..<dataAt + size]) }
      index = dataAt + size + (size & 1)
    }
    return nil
  }
}
