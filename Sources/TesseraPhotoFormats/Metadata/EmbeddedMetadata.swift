import TesseraUtilities

/// The metadata blocks a photo's container holds, as bytes not yet read: its EXIF (a TIFF
/// structure), XMP packet and IPTC-IIM datasets, found by the container's own reader
/// (`PNGChunks`, `WebPChunks`, `JXLBoxes`, `JPEGMetadataSegments`).
///
/// Why one type: the date taken is looked for in the same order whatever the container —
/// EXIF's (DateTimeOriginal, else DateTimeDigitized, as `ExifReader` reads it), then XMP's
/// (`XMPDates`), then IPTC's (`IPTCDates`) — so a PNG, WebP or JPEG XL file whose date is only
/// in XMP sorts where a JPEG would.
///
/// - Complexity: O(bytes of the blocks), each bounded by its reader's limit.
package struct EmbeddedMetadata: Equatable {
  package var tiff: [UInt8]?
  package var xmp: [UInt8]?
  package var iim: [UInt8]?

  var isEmpty: Bool { tiff == nil && xmp == nil && iim == nil }

  /// Fills what `self` lacks from `other` (a later read of the same file).
  package mutating func merge(_ other: EmbeddedMetadata) {
    tiff = tiff ?? other.tiff
    xmp = xmp ?? other.xmp
    iim = iim ?? other.iim
  }

  /// The facts these blocks tell. The EXIF orientation is dropped (`keepsOrientation` false)
  /// for containers whose decoders do not turn the picture by it (`decoderTurns(_:)`), so the
  /// shown size stays the stored one.
  package func facts(keepsOrientation: Bool) -> ExifFacts? {
    var facts = tiff.flatMap(ExifReader.facts) ?? ExifFacts()
    if !keepsOrientation { facts.orientation = nil }
    if facts.taken == nil {
      facts.taken = xmp.flatMap(XMPDates.taken) ?? iim.flatMap(IPTCDates.taken)
    }
    Self.add(xmp: xmp, to: &facts)
    return facts == ExifFacts() ? nil : facts
  }

  /// `facts` with what a tool wrote into the file's own XMP (as Lightroom and digiKam do when
  /// told to write into files): its stars (0…5) count over EXIF's Rating tag, which the
  /// camera wrote and those tools may leave behind; its label, keywords, tag paths and title
  /// are `decided`. A sidecar's say counts over both (`PhotoHeader`).
  package static func add(xmp: [UInt8]?, to facts: inout ExifFacts) {
    guard let culling = culling(inXMP: xmp) else { return }
    facts.rating = culling.rating.flatMap { (0...5).contains($0) ? $0 : nil } ?? facts.rating
    var decided = culling
    decided.rating = nil
    if decided != XMPCulling() { facts.decided = decided }
  }

  /// What the packet `xmp` says a person decided; nil when it says nothing. A packet without
  /// any of the properties' names is not parsed: most have none.
  /// - Complexity: O(packet bytes).
  static func culling(inXMP xmp: [UInt8]?) -> XMPCulling? {
    guard let xmp, xmp.count <= XMPPacket.maxPacketBytes,
      cullingNames.contains(where: { PacketEnd.firstRange(of: $0, in: xmp[...]) != nil }),
      let packet = XMPPacket(xmp)
    else { return nil }
    let culling = XMPCulling(packet)
    return culling == XMPCulling() ? nil : culling
  }

  /// The local names `XMPCulling` reads, as bytes a packet holding one of them contains.
  private static let cullingNames = ["Rating", "Label", "subject", "Subject", "TagsList", "title"]
    .map { Array($0.utf8) }

  /// Whether the decoder turns the picture of the file starting with `bytes` by its EXIF
  /// orientation: libvips turns PNG (and Tessera's decoder a PNG whose eXIf follows its
  /// pixels, which libvips does not read: `PNGLateOrientation`) and WebP; a JPEG XL picture
  /// is turned by its codestream's own orientation, never its EXIF's.
  package static func decoderTurns(_ bytes: [UInt8]) -> Bool {
    switch ImageSignature(sniffing: bytes) {
    case .png, .webp: true
    default: false
    }
  }

  /// The metadata a PNG, WebP or JPEG XL file's first `bytes` hold; nil for other formats
  /// (JPEG and TIFF go through `ExifReader` directly, HEIF through `HEIFHeader`).
  static func inContainer(_ bytes: [UInt8]) -> EmbeddedMetadata? {
    switch ImageSignature(sniffing: bytes) {
    case .png: PNGChunks.metadata(bytes).found
    case .webp: WebPChunks.metadata(bytes).found
    case .jxl where JXLBoxes.isContainer(bytes): JXLBoxes.metadata(bytes).found
    default: nil
    }
  }

  /// The facts in a photo's first `bytes`: a JPEG's or TIFF's EXIF, with XMP and IPTC when
  /// EXIF has no date, and what the embedded XMP says a person decided (`add(xmp:to:)`); a
  /// PNG's, WebP's or JPEG XL container's EXIF and XMP, the orientation
  /// kept where the decoder turns by it; the EXIF of a RAW that is no TIFF (`RawContainerExif`).
  package static func facts(_ bytes: [UInt8]) -> ExifFacts? {
    if let found = inContainer(bytes) {
      return found.facts(keepsOrientation: decoderTurns(bytes))
    }
    if let raw = RawContainerExif.facts(bytes) { return raw }
    var facts = ExifReader.facts(bytes)
    let blocks: EmbeddedMetadata
    switch ImageSignature(sniffing: bytes) {
    case .jpeg:
      let segments = JPEGMetadataSegments(bytes)
      blocks = EmbeddedMetadata(xmp: segments.xmp, iim: segments.iim)
    case .tiff: blocks = TIFFMetadataTags.blocks(bytes)
    default: return facts
    }
    var found = facts ?? ExifFacts()
    add(xmp: blocks.xmp, to: &found)
    if found != ExifFacts() { facts = found }
    guard facts?.taken == nil else { return facts }
    if let taken = blocks.xmp.flatMap(XMPDates.taken) ?? blocks.iim.flatMap(IPTCDates.taken) {
      var found = facts ?? ExifFacts()
      found.taken = taken
      facts = found
    }
    return facts
  }
}

/// Where a container's walk over one window of its file ended: what it found, and where the
/// next chunk starts in the file when the wanted metadata may lie further on.
package struct MetadataScan {
  package var found = EmbeddedMetadata()
  /// File offset of the next chunk to read, nil when the walk needs no further read.
  package var next: Int?
}
