import TesseraUtilities

/// The EXIF of RAW files whose container is not a TIFF structure, so that `ExifReader` finds
/// nothing at their start (the TIFF-based ones, CR2, NEF, ARW, DNG, ORF, RW2…, it reads
/// directly): the same containers `RawPreviewLocator` walks for previews, here over the
/// file's first bytes in memory.
///
/// - Fujifilm RAF: the embedded JPEG, whose offset is the big-endian word at byte 84, carries
///   the photo's EXIF in its own APP1 segment.
/// - Minolta MRW: the `\0TTW` block, among the blocks after `\0MRM`, is a whole TIFF
///   structure.
/// - Canon CR3: `moov`'s Canon `uuid` box holds CMT1 (IFD0: the camera) and CMT2 (the Exif
///   IFD as a TIFF structure of its own, the dates in its first IFD).
///
/// The orientation is dropped: `RawPreviewLocator` turns the preview by it, and a RAW's header
/// states no pixel size that it would swap.
///
/// - Complexity: O(1) for RAF; O(blocks), at most ``maxMRWBlocks``, for MRW; O(boxes) at three
///   levels, each at most `FeedLimits.maxHEIFBoxes`, for CR3; plus `ExifReader`'s reads.
package enum RawContainerExif {
  static let maxMRWBlocks = 16

  private static let rafMagic = Array("FUJIFILMCCD-RAW ".utf8)
  private static let mrwMagic: [UInt8] = [0, 0x4D, 0x52, 0x4D]
  private static let ttwBlock: [UInt8] = [0, 0x54, 0x54, 0x57]

  /// The facts of the RAF, MRW or CR3 file whose first bytes are `bytes`; nil for other files
  /// and when its EXIF was not found in them.
  static func facts(_ bytes: [UInt8]) -> ExifFacts? {
    var facts: ExifFacts?
    if bytes.starts(with: rafMagic) {
      facts = rafJPEG(bytes).flatMap(ExifReader.facts)
    } else if bytes.starts(with: mrwMagic) {
      facts = mrwTIFF(bytes).flatMap(ExifReader.facts)
    } else if isCR3(bytes) {
      facts = cr3Facts(bytes)
    }
    facts?.orientation = nil
    return facts == ExifFacts() ? nil : facts
  }

  /// The bytes holding a RAF's (its embedded JPEG) or an MRW's (its TTW block) EXIF; nil for
  /// other files.
  static func embeddedEXIF(_ bytes: [UInt8]) -> [UInt8]? {
    if bytes.starts(with: rafMagic) { return rafJPEG(bytes) }
    if bytes.starts(with: mrwMagic) { return mrwTIFF(bytes) }
    return nil
  }

  /// A CR3's CMT1 (IFD0), CMT2 (Exif), CMT3 (maker notes) and CMT4 (GPS) boxes, each the TIFF
  /// structure it is (nil where one does not parse); nil for other files.
  static func cr3Structures(_ bytes: [UInt8]) -> [ExifStructure?]? {
    guard isCR3(bytes), let canon = cr3CanonBox(bytes) else { return nil }
    let boxes: Set<FourCC> = ["CMT1", "CMT2", "CMT3", "CMT4"]
    return ISOBoxes.children(of: canon.payload, in: bytes, depth: 2).filter {
      boxes.contains($0.type)
    }.map { ExifStructure(photo: Array(bytes[$0.payload])) }
  }

  /// The date taken and camera of a Canon CRW, whose CIFF heaps keep them in records
  /// (`CaptureTime`, `MakeModel`) listed in a table at the file's end: walked through `read`
  /// (`RawCIFF.facts`). Nil for any other file.
  package static func crwFacts(
    head: [UInt8], fileSize: Int, read: @escaping (Int, Int) -> [UInt8]?
  ) -> ExifFacts? {
    RawCIFF.facts(head: head, fileSize: fileSize, read: read)
  }

  private static func bigEndian32(_ bytes: [UInt8], at index: Int) -> Int? {
    guard index >= 0, index <= bytes.count - 4 else { return nil }
    return bytes[index..<index + 4].reduce(0) { $0 << 8 | Int($1) }
  }

  /// The bytes from the embedded JPEG's start on.
  static func rafJPEG(_ bytes: [UInt8]) -> [UInt8]? {
    guard let offset = bigEndian32(bytes, at: 84), offset >= 92, offset < bytes.count else {
      return nil
    }
    return Array(bytes[offset...])
  }

  /// The TTW block's TIFF structure, as far as `bytes` hold it.
  static func mrwTIFF(_ bytes: [UInt8]) -> [UInt8]? {
    guard let length = bigEndian32(bytes, at: 4) else { return nil }
    let end = min(8 + length, bytes.count)  // length < 2^32: no overflow
    var position = 8
    for _ in 0..<maxMRWBlocks {
      guard end - position >= 8, let size = bigEndian32(bytes, at: position + 4) else {
        return nil
      }
      let start = position + 8
      if bytes[position..<position + 4].elementsEqual(ttwBlock) {
        return Array(bytes[start..<min(start + size, bytes.count)])
      }
      guard size <= end - start else { return nil }
      position = start + size
    }
    return nil
  }

  /// Canon's uuid box inside `moov`, which holds the CMT boxes.
  private static func cr3CanonBox(_ bytes: [UInt8]) -> ISOBox? {
    let top = ISOBoxes.children(of: 0..<bytes.count, in: bytes, depth: 0)
    guard let moov = top.first(where: { $0.type == "moov" }) else { return nil }
    return ISOBoxes.children(of: moov.payload, in: bytes, depth: 1).first { box in
      // `ISOBoxes` leaves a uuid box's payload after its 16-byte extended type.
      box.type == "uuid" && box.payload.lowerBound >= 16
        && bytes[(box.payload.lowerBound - 16)..<box.payload.lowerBound].elementsEqual(
          RawCR3.canonUUID)
    }
  }

  private static func isCR3(_ bytes: [UInt8]) -> Bool {
    bytes.count >= 12 && bytes[4..<12].elementsEqual(Array("ftypcrx ".utf8))
  }

  /// CMT1's camera and CMT2's date, each read as the TIFF structure it is.
  static func cr3Facts(_ bytes: [UInt8]) -> ExifFacts? {
    guard let canon = cr3CanonBox(bytes) else { return nil }
    var camera: ExifFacts?
    var exif: ExifFacts?
    for box in ISOBoxes.children(of: canon.payload, in: bytes, depth: 2) {
      if box.type == "CMT1", camera == nil {
        camera = ExifReader.facts(Array(bytes[box.payload]))
      } else if box.type == "CMT2", exif == nil {
        exif = ExifReader.facts(Array(bytes[box.payload]))
      }
    }
    guard camera != nil || exif != nil else { return nil }
    var facts = camera ?? ExifFacts()
    facts.taken = exif?.taken ?? facts.taken
    return facts
  }
}
