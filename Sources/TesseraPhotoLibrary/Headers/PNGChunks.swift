import TesseraUtilities

/// A PNG's metadata chunks: `eXIf` (a raw TIFF structure, no `Exif\0\0` prefix; PNG 3rd
/// edition) and the `iTXt` chunk keyed `XML:com.adobe.xmp` (an XMP packet, uncompressed only:
/// a compressed one would need inflating hostile bytes, and writers store XMP plain).
///
/// Each chunk's CRC-32 (zlib's, through `PNGWriter.crc32`) must match, as libpng requires: a
/// damaged chunk tells nothing, and a chunk found by searching a file's tail (below) is told
/// from compressed pixel bytes that happen to spell its type.
///
/// `eXIf` should come before the pixels (IDAT) but may follow them; a file whose metadata is
/// not in its first bytes has its last ``maxTailBytes`` read (`LocalPhotoHeaderReader`) and
/// searched by ``tailMetadata(_:)``: the chunks after IDAT sit just before IEND, and walking
/// to them from the start would read every IDAT chunk's header.
///
/// - Complexity: O(chunks walked) (`MetadataChunks.maxChunks`) plus the bytes CRC-checked,
///   at most ``maxChunkBytes`` per chunk; the tail search is O(tail) plus at most
///   ``maxTailCandidates`` CRC checks.
enum PNGChunks {
  /// Longest metadata chunk read (payload).
  static let maxChunkBytes = 64 * 1024
  /// Bytes at a PNG's end read for metadata written after its pixels.
  static let maxTailBytes = 64 * 1024 + 12
  /// Chunk types found in a tail that are CRC-checked at most: a hostile tail can spell
  /// `eXIf` everywhere.
  static let maxTailCandidates = 16

  private static let exif: FourCC = "eXIf"
  private static let text: FourCC = "iTXt"
  private static let xmpKeyword = Array("XML:com.adobe.xmp".utf8)

  /// The metadata in a PNG's first `bytes`, and whether its walk left them before IEND
  /// (`next`: then its tail may hold more).
  static func metadata(_ bytes: [UInt8]) -> MetadataScan {
    guard ImageSignature(sniffing: bytes) == .png else { return MetadataScan() }
    let walk = MetadataChunks.walk(
      bytes, from: 8, format: .png, wanted: [exif, text], maxWanted: maxChunkBytes + 12)
    var scan = MetadataScan(next: walk.next)
    for chunk in walk.chunks { read(chunk, in: bytes, into: &scan.found) }
    return scan
  }

  /// The metadata chunks in `tail`, a PNG's last bytes, found by their type and CRC.
  static func tailMetadata(_ tail: [UInt8]) -> EmbeddedMetadata {
    var found = EmbeddedMetadata()
    var candidates = 0
    var index = 4
    while index <= tail.count - 8, candidates < maxTailCandidates {
      defer { index += 1 }
      let type = FourCC(value: tail[index..<index + 4].reduce(0) { $0 << 8 | UInt32($1) })
      guard type == exif || type == text else { continue }
      let length = tail[(index - 4)..<index].reduce(0) { $0 << 8 | Int($1) }
      guard length <= maxChunkBytes, length <= tail.count - index - 8 else { continue }
      candidates += 1
      read(
        MetadataChunk(type: type, payload: (index + 4)..<(index + 4 + length)), in: tail,
        into: &found)
    }
    return found
  }

  /// Keeps `chunk`'s block in `found` when its CRC matches and nothing of its kind was found.
  private static func read(
    _ chunk: MetadataChunk, in bytes: [UInt8], into found: inout EmbeddedMetadata
  ) {
    let payload = chunk.payload
    guard payload.count <= maxChunkBytes, payload.lowerBound >= 4,
      payload.upperBound <= bytes.count - 4
    else { return }
    let stored = bytes[payload.upperBound..<payload.upperBound + 4].reduce(UInt32(0)) {
      $0 << 8 | UInt32($1)
    }
    guard PNGWriter.crc32(bytes[(payload.lowerBound - 4)..<payload.upperBound]) == stored else {
      return
    }
    if chunk.type == exif, found.tiff == nil {
      found.tiff = Array(bytes[payload])
    } else if chunk.type == text, found.xmp == nil {
      found.xmp = xmp(inITXt: bytes[payload])
    }
  }

  /// The text of an uncompressed `iTXt` chunk keyed `XML:com.adobe.xmp`: keyword, NUL,
  /// compression flag 0, method, language tag, NUL, translated keyword, NUL, text.
  static func xmp(inITXt payload: ArraySlice<UInt8>) -> [UInt8]? {
    let start = payload.startIndex
    guard payload.count > xmpKeyword.count + 2,
      payload[start..<start + xmpKeyword.count].elementsEqual(xmpKeyword),
      payload[start + xmpKeyword.count] == 0, payload[start + xmpKeyword.count + 1] == 0
    else { return nil }
    var rest = payload[(start + xmpKeyword.count + 3)...]
    for _ in 0..<2 {  // the language tag and the translated keyword
      guard let end = rest.firstIndex(of: 0) else { return nil }
      rest = rest[(end + 1)...]
    }
    return Array(rest)
  }
}
