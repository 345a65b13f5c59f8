import TesseraUtilities

/// The JPEGs a TIFF-based RAW names (CR2, NEF, NRW, ARW, DNG, ORF, RW2, PEF, SRW, 3FR, IIQ,
/// ERF, MEF, MOS, and MRW's embedded TIFF): the IFD0 chain, its SubIFDs (0x014A) and the EXIF
/// IFD (0x8769), each IFD read as `ExifStructure` reads one, through the byte budget of a
/// ``RawByteReader`` instead of a whole file in memory.
///
/// A candidate is `JPEGInterchangeFormat`/`Length` (0x0201/0x0202), a single strip of an IFD
/// whose Compression is 6 or 7 (0x0111/0x0117), or RW2's `JpgFromRaw` (0x002E in IFD0, the
/// JPEG inside the tag's value). Whether a candidate is a preview (and not lossless sensor
/// data) is ``RawJPEGProbe``'s call, made later.
///
/// Bounded: at most ``maxIFDs`` IFDs, each visited once (a chain that loops ends), SubIFDs and
/// the EXIF IFD nested at most ``maxDepth`` deep, ``ExifStructure/maxIFDEntries`` entries an
/// IFD, ``maxSubIFDs`` SubIFDs an entry, ``maxCandidates`` candidates.
///
/// - Complexity: O(IFDs × entries), at most ``maxIFDs`` × 512 entries, and as many reads of
///   at most 6 KiB.
struct RawTIFFWalk {
  static let maxIFDs = 64
  static let maxDepth = 4
  static let maxSubIFDs = 16
  static let maxCandidates = 32

  /// A TIFF header's facts: byte order, the magic number (42; RW2 0x55, ORF 0x4F52 or 0x5352)
  /// and where IFD0 starts, relative to the header.
  struct Header {
    var endian: RawEndian
    var magic: Int
    var firstIFD: Int

    /// The header at the start of `bytes` (at least 8 of them), nil when it is not one of a
    /// TIFF-based RAW.
    init?(_ bytes: [UInt8]) {
      guard bytes.count >= 8 else { return nil }
      switch (bytes[0], bytes[1]) {
      case (0x49, 0x49): endian = RawEndian(bigEndian: false)
      case (0x4D, 0x4D): endian = RawEndian(bigEndian: true)
      default: return nil
      }
      guard let magic = endian.u16(bytes, 2), ExifStructure.magics.contains(magic),
        let first = endian.u32(bytes, 4), first >= 8
      else { return nil }
      self.magic = magic
      firstIFD = first
    }
  }

  private enum Tag {
    static let rw2JPEG = 0x002E
    static let compression = 0x0103
    static let stripOffsets = 0x0111
    static let orientation = 0x0112
    static let stripByteCounts = 0x0117
    static let subIFDs = 0x014A
    static let jpegOffset = 0x0201
    static let jpegLength = 0x0202
    static let exifIFD = 0x8769
    static let makerNote = 0x927C
    static let make = 0x010F
    static let dngVersion = 0xC612
  }

  let reader: RawByteReader
  /// Where the TIFF header lies in the file: every offset in the structure is relative to it.
  let base: Int
  let endian: RawEndian
  /// IFDs read (file offsets), each once.
  private var visited: Set<Int> = []
  /// The ranges (file offsets) named as JPEGs, in the order found, each once.
  private(set) var candidates: [(offset: Int, count: Int)] = []
  /// IFD0's orientation (0x0112), 1 when absent or out of 1…8.
  private(set) var orientation = 1
  /// IFD0 has DNGVersion (0xC612).
  private(set) var isDNG = false
  /// IFD0's Make (0x010F), when printable ASCII.
  private(set) var make: String?
  /// A maker's note with no header of its own is an IFD (Minolta's, in MRW).
  let plainMakerNote: Bool

  init(reader: RawByteReader, base: Int, endian: RawEndian, plainMakerNote: Bool = false) {
    self.reader = reader
    self.base = base
    self.endian = endian
    self.plainMakerNote = plainMakerNote
  }

  /// Walks the IFD chain from `firstIFD` (relative to ``base``) and all it names.
  mutating func walk(firstIFD: Int) throws(RawByteReader.Stop) {
    try walkChain(at: firstIFD, depth: 0, isRoot: true)
  }

  private mutating func walkChain(
    at start: Int, depth: Int, isRoot: Bool
  ) throws(RawByteReader.Stop) {
    var next: Int? = start
    var index = 0
    while let offset = next, offset >= 8,
      let (ifd, following) = try read(ifdAt: base + offset, endian: endian)
    {
      try visit(ifd, depth: depth, isIFD0: isRoot && index == 0)
      next = following
      index += 1
    }
  }

  /// The IFD at file offset `position` as an `ExifStructure` over its own bytes behind a
  /// made-up 8-byte header of byte order `endian` (so its entries start at 8, and an entry's
  /// value field is at entry.offset + 8), and the raw link to the IFD after it (0 at the end).
  /// Nil for an IFD already read, past ``maxIFDs``, empty, over 512 entries, or outside the
  /// file.
  private mutating func read(
    ifdAt position: Int, endian: RawEndian
  ) throws(RawByteReader.Stop) -> (ExifStructure, Int?)? {
    // Marked before it is read: one that cannot be read is not tried again either.
    guard visited.count < Self.maxIFDs, visited.insert(position).inserted,
      let countBytes = try reader.bytes(at: position, count: 2),
      let count = endian.u16(countBytes, 0), count > 0, count <= ExifStructure.maxIFDEntries,
      let entries = try reader.bytes(at: position + 2, count: count * 12)
    else { return nil }
    // The link may be cut off at the very end of a file: the entries still count.
    let link = try reader.bytes(at: position + 2 + count * 12, count: 4)
    let header: [UInt8] =
      endian.bigEndian ? [0x4D, 0x4D, 0, 42, 0, 0, 0, 8] : [0x49, 0x49, 42, 0, 8, 0, 0, 0]
    let bytes = header + countBytes + entries + (link ?? [])
    guard let ifd = ExifStructure(bytes: bytes, range: 0..<bytes.count) else { return nil }
    return (ifd, link.flatMap { endian.u32($0, 0) })
  }

  private mutating func visit(
    _ ifd: ExifStructure, depth: Int, isIFD0: Bool
  ) throws(RawByteReader.Stop) {
    var jpegOffset: Int?
    var jpegLength: Int?
    var compression: Int?
    var strips: [Int] = []
    var stripCounts: [Int] = []
    var children: [Int] = []
    var makerNote: (offset: Int, count: Int)?
    for entry in ifd.entries(at: 8) {
      switch entry.tag {
      case Tag.jpegOffset: jpegOffset = try values(entry, in: ifd, max: 1).first
      case Tag.jpegLength: jpegLength = try values(entry, in: ifd, max: 1).first
      case Tag.compression: compression = ifd.integer(entry)
      case Tag.stripOffsets: strips = try values(entry, in: ifd, max: 2)
      case Tag.stripByteCounts: stripCounts = try values(entry, in: ifd, max: 2)
      case Tag.subIFDs:
        children += try values(entry, in: ifd, max: Self.maxSubIFDs).prefix(Self.maxSubIFDs)
      case Tag.exifIFD: children += try values(entry, in: ifd, max: 1).prefix(1)
      case Tag.orientation where isIFD0:
        if let value = ifd.integer(entry), (1...8).contains(value) { orientation = value }
      case Tag.rw2JPEG where isIFD0 && entry.type == 7:
        // UNDEFINED bytes: the count is the JPEG's length, the value field its offset.
        if let offset = ifd.u32(entry.offset + 8), entry.count > 4 {
          add(base + offset, count: entry.count)
        }
      case Tag.makerNote where entry.type == 7 && !isIFD0:
        if let offset = ifd.u32(entry.offset + 8), entry.count >= 16 {
          makerNote = (offset, entry.count)
        }
      case Tag.dngVersion where isIFD0: isDNG = true
      case Tag.make where isIFD0: make = try ascii(entry, in: ifd)
      default: break
      }
    }
    if let jpegOffset, let jpegLength { add(base + jpegOffset, count: jpegLength) }
    if compression == 6 || compression == 7, strips.count == 1, stripCounts.count == 1 {
      add(base + strips[0], count: stripCounts[0])
    }
    if let makerNote { try readMakerNote(at: base + makerNote.offset) }
    guard depth < Self.maxDepth else { return }
    for child in children.prefix(Self.maxSubIFDs + 1) {
      try walkChain(at: child, depth: depth + 1, isRoot: false)
    }
  }

  /// A candidate at file offset `start` of `count` bytes, once.
  private mutating func add(_ start: Int, count: Int) {
    guard candidates.count < Self.maxCandidates, count > 0,
      !candidates.contains(where: { $0.offset == start })
    else { return }
    candidates.append((start, count))
  }

  /// The previews a maker's note names, for the makers whose RAWs keep their largest JPEG
  /// there (as exiftool reads them):
  /// - Olympus ORF, `OLYMPUS\0` + byte order: IFD at +12, offsets from the note's start; its
  ///   CameraSettings IFD (0x2020) has PreviewImageStart/Length (0x0101/0x0102).
  /// - older Olympus and Epson, `OLYMP\0` or `EPSON\0`: IFD at +8, offsets from the TIFF
  ///   header; 0x0088/0x0089 and 0x1036/0x1037, and CameraSettings as above.
  /// - Pentax PEF, `AOC\0` + byte order (IFD at +6) or `PENTAX \0` + byte order (IFD at
  ///   +10): PreviewImageStart/Length (0x0004/0x0003) from the TIFF header.
  /// - Minolta MRW (``plainMakerNote``): an IFD with no header, 0x0088/0x0089 from the TIFF
  ///   header.
  private mutating func readMakerNote(at start: Int) throws(RawByteReader.Stop) {
    guard let head = try reader.bytes(at: start, count: 16) else { return }
    func order(at index: Int) -> RawEndian? {
      switch (head[index], head[index + 1]) {
      case (0x49, 0x49): RawEndian(bigEndian: false)
      case (0x4D, 0x4D): RawEndian(bigEndian: true)
      default: nil
      }
    }
    func starts(with text: String) -> Bool { head.starts(with: Array(text.utf8)) }
    if starts(with: "OLYMPUS\0") {
      guard let order = order(at: 8) else { return }
      try readOlympus(ifdAt: start + 12, endian: order, base: start)
    } else if starts(with: "OLYMP\0") || starts(with: "EPSON\0") {
      try readOlympus(ifdAt: start + 8, endian: endian, base: base)
    } else if starts(with: "AOC\0") || starts(with: "PENTAX \0") {
      let header = starts(with: "AOC\0") ? 6 : 10
      let order = order(at: header - 2) ?? endian
      guard let (ifd, _) = try read(ifdAt: start + header, endian: order) else { return }
      previews(in: ifd, base: base, pairs: [(0x0004, 0x0003)])
    } else if plainMakerNote {
      guard let (ifd, _) = try read(ifdAt: start, endian: endian) else { return }
      previews(in: ifd, base: base, pairs: [(0x0088, 0x0089)])
    }
  }

  /// An Olympus maker note's IFD (offsets from `base`): its own preview tags, and those of its
  /// CameraSettings IFD (0x2020: an IFD, a LONG, or UNDEFINED bytes holding the IFD; the
  /// value field is its offset in each case).
  private mutating func readOlympus(
    ifdAt position: Int, endian order: RawEndian, base: Int
  ) throws(RawByteReader.Stop) {
    guard let (ifd, _) = try read(ifdAt: position, endian: order) else { return }
    previews(in: ifd, base: base, pairs: [(0x0088, 0x0089), (0x1036, 0x1037)])
    for entry in ifd.entries(at: 8) where entry.tag == 0x2020 {
      guard let offset = ifd.u32(entry.offset + 8),
        let (settings, _) = try read(ifdAt: base + offset, endian: order)
      else { continue }
      previews(in: settings, base: base, pairs: [(0x0101, 0x0102)])
    }
  }

  /// Candidates from pairs of (start, length) tags of one IFD, starts counted from `base`.
  private mutating func previews(
    in ifd: ExifStructure, base: Int, pairs: [(start: Int, length: Int)]
  ) {
    var numbers: [Int: Int] = [:]
    for entry in ifd.entries(at: 8) { numbers[entry.tag] = ifd.integer(entry) }
    for pair in pairs {
      if let start = numbers[pair.start], let length = numbers[pair.length] {
        add(base + start, count: length)
      }
    }
  }

  /// An ASCII value of at most 64 bytes, inline or at its offset (Make, for naming the file).
  private func ascii(
    _ entry: ExifStructure.Entry, in ifd: ExifStructure
  ) throws(RawByteReader.Stop) -> String? {
    guard entry.type == 2, (1...64).contains(entry.count) else { return nil }
    if entry.count <= 4 { return ifd.ascii(entry, maxLength: 64) }
    guard let offset = ifd.u32(entry.offset + 8),
      let bytes = try reader.bytes(at: base + offset, count: entry.count)
    else { return nil }
    let text = bytes.prefix { $0 != 0 }
    guard text.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
    return String(decoding: text, as: UTF8.self)
  }

  /// The values of a SHORT, LONG or IFD (13) entry, inline or at its offset, at most
  /// `max + 1` of them (so a caller that wants one strip sees that there are more); empty for
  /// another type or values outside the file.
  private func values(
    _ entry: ExifStructure.Entry, in ifd: ExifStructure, max: Int
  ) throws(RawByteReader.Stop) -> [Int] {
    let size: Int
    switch entry.type {
    case 3: size = 2
    case 4, 13: size = 4
    default: return []
    }
    guard entry.count > 0 else { return [] }
    let wanted = min(entry.count, max + 1)
    let bytes: [UInt8]
    let start: Int
    if entry.count * size <= 4 {  // count < 2^32: no overflow
      bytes = ifd.bytes
      start = entry.offset + 8
    } else {
      guard let offset = ifd.u32(entry.offset + 8),
        let read = try reader.bytes(at: base + offset, count: wanted * size)
      else { return [] }
      bytes = read
      start = 0
    }
    return (0..<wanted).compactMap { index in
      let at = start + index * size
      return size == 2 ? endian.u16(bytes, at) : endian.u32(bytes, at)
    }
  }
}
