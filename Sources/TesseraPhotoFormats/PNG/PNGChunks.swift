import TesseraUtilities

/// A PNG's metadata chunks: `eXIf` (a raw TIFF structure, no `Exif\0\0` prefix; PNG 3rd
/// edition), the `iTXt` or `zTXt` chunk keyed `XML:com.adobe.xmp` (an XMP packet), and the
/// `zTXt` raw profiles in which ImageMagick keeps a converted JPEG's EXIF and XMP
/// (`PNGRawProfile`). A deflated chunk is inflated to at most ``maxInflatedBytes``, and only
/// the first of each kind (EXIF, XMP) in a walk: a hostile file's many small streams cannot
/// each expand.
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
///   ``maxTailCandidates`` CRC checks; each of the two inflates at most two chunks, to at most
///   ``maxInflatedBytes`` each.
package enum PNGChunks {
  /// Longest metadata chunk read (payload).
  static let maxChunkBytes = 64 * 1024
  /// Bytes at a PNG's end read for metadata written after its pixels.
  package static let maxTailBytes = 64 * 1024 + 12
  /// Chunk types found in a tail that are CRC-checked at most: a hostile tail can spell
  /// `eXIf` everywhere.
  static let maxTailCandidates = 16

  /// Longest XMP packet a deflated chunk is inflated to; a longer one is not read.
  static let maxInflatedBytes = 1 << 20

  private static let exif: FourCC = "eXIf"
  private static let text: FourCC = "iTXt"
  private static let compressedText: FourCC = "zTXt"
  private static let xmpKeyword = Array("XML:com.adobe.xmp".utf8)

  /// The metadata in a PNG's first `bytes`, and whether its walk left them before IEND
  /// (`next`: then its tail may hold more).
  package static func metadata(_ bytes: [UInt8]) -> MetadataScan {
    guard ImageSignature(sniffing: bytes) == .png else { return MetadataScan() }
    let walk = MetadataChunks.walk(
      bytes, from: 8, format: .png, wanted: [exif, text, compressedText],
      maxWanted: maxChunkBytes + 12)
    var scan = MetadataScan(next: walk.next)
    for chunk in walk.chunks { read(chunk, in: bytes, into: &scan.found) }
    return scan
  }

  /// The metadata chunks in `tail`, a PNG's last bytes, found by their type and CRC.
  package static func tailMetadata(_ tail: [UInt8]) -> EmbeddedMetadata {
    var found = EmbeddedMetadata()
    var candidates = 0
    var index = 4
    while index <= tail.count - 8, candidates < maxTailCandidates {
      defer { index += 1 }
      let type = FourCC(value: tail[index..<index + 4].reduce(0) { $0 << 8 | UInt32($1) })
      guard type == exif || type == text || type == compressedText else { continue }
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
    } else if chunk.type == compressedText {
      readCompressed(bytes[payload], into: &found)
    }
  }

  /// A `zTXt` chunk (keyword, NUL, method, deflated text) that holds an XMP packet, keyed
  /// `XML:com.adobe.xmp`, or ImageMagick's raw EXIF or XMP profile (`PNGRawProfile`), when
  /// `found` lacks that kind of block.
  private static func readCompressed(
    _ payload: ArraySlice<UInt8>, into found: inout EmbeddedMetadata
  ) {
    // A keyword has 1 to 79 bytes.
    guard let end = payload.prefix(80).firstIndex(of: 0), end < payload.endIndex - 1 else {
      return
    }
    let keyword = payload[payload.startIndex..<end]
    let method = payload[end + 1]
    let text = payload[(end + 2)...]
    if found.xmp == nil, keyword.elementsEqual(xmpKeyword) {
      found.xmp = inflated(method: method, text)
    } else if found.xmp == nil, keyword.elementsEqual(PNGRawProfile.xmpKeyword) {
      found.xmp = PNGRawProfile.bytes(inflated(method: method, text)) ?? []
    } else if found.tiff == nil, PNGRawProfile.exifKeywords.contains(where: keyword.elementsEqual) {
      let profile = PNGRawProfile.bytes(inflated(method: method, text)) ?? []
      found.tiff = PNGRawProfile.tiff(inExifProfile: profile)
    }
  }

  /// The text after the keyword `XML:com.adobe.xmp` and its NUL; nil for other keywords.
  private static func afterXMPKeyword(_ payload: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
    let start = payload.startIndex
    guard payload.count > xmpKeyword.count,
      payload[start..<start + xmpKeyword.count].elementsEqual(xmpKeyword),
      payload[start + xmpKeyword.count] == 0
    else { return nil }
    return payload[(start + xmpKeyword.count + 1)...]
  }

  /// Deflated text (method 0, the only one PNG defines), inflated; empty when it is not a
  /// whole stream within ``maxInflatedBytes``, so that no later chunk of its kind is inflated
  /// too.
  private static func inflated(method: UInt8, _ text: ArraySlice<UInt8>) -> [UInt8] {
    guard method == 0 else { return [] }
    return PNGWriter.inflate(text, maxBytes: maxInflatedBytes) ?? []
  }

  /// The text of an `iTXt` chunk keyed `XML:com.adobe.xmp`: keyword, NUL, compression flag,
  /// method, language tag, NUL, translated keyword, NUL, text (deflated when the flag is 1).
  static func xmp(inITXt payload: ArraySlice<UInt8>) -> [UInt8]? {
    guard let fields = afterXMPKeyword(payload), fields.count >= 2,
      let compressed = fields.first, compressed <= 1
    else { return nil }
    let method = fields[fields.startIndex + 1]
    var rest = fields.dropFirst(2)
    for _ in 0..<2 {  // the language tag and the translated keyword
      guard let end = rest.firstIndex(of: 0) else { return nil }
      rest = rest[(end + 1)...]
    }
    return compressed == 1 ? inflated(method: method, rest) : Array(rest)
  }

}
