import TesseraGeometry
import TesseraPhotoFormats
import TesseraUtilities

/// RAW files built byte by byte: minimal TIFF, CR3, RAF, CIFF and MRW structures around real
/// JPEGs, so that each frame header states a real size. The locator's tests (and its fuzz
/// seeds) take them with grey pictures; `tessera bench folder --mixed` puts a generated
/// photo in as the preview, so it lives here rather than in the tests' support.
package enum RawFixtures {
  /// A baseline JPEG of `width` × `height` grey pixels, written by libjpeg-turbo.
  package static func jpeg(width: Int, height: Int) -> [UInt8] {
    let rgba = [UInt8](repeating: 0x80, count: width * height * 4)
    return JPEGWriter.encode(rgba: rgba, width: width, height: height, quality: 50)!
  }

  /// `jpeg` with its frame header's marker replaced: 0xC3 makes it read as lossless sensor
  /// data, 0xC2 as progressive.
  package static func withFrameMarker(_ marker: UInt8, _ jpeg: [UInt8]) -> [UInt8] {
    var bytes = jpeg
    for index in 2..<(bytes.count - 1) where bytes[index] == 0xFF && bytes[index + 1] == 0xC0 {
      bytes[index + 1] = marker
      break
    }
    return bytes
  }

  /// One IFD entry; `value` is the value field: a number (SHORTs of count 1 and 2 are packed
  /// as TIFF packs them) or an offset.
  package struct Entry {
    package var tag: Int
    package var type: Int
    package var count: Int
    package var value: Int

    package init(tag: Int, type: Int, count: Int, value: Int) {
      self.tag = tag
      self.type = type
      self.count = count
      self.value = value
    }

    package static func short(_ tag: Int, _ value: Int) -> Entry {
      Entry(tag: tag, type: 3, count: 1, value: value)
    }
    package static func long(_ tag: Int, _ value: Int) -> Entry {
      Entry(tag: tag, type: 4, count: 1, value: value)
    }
  }

  /// A TIFF structure laid out as it is appended to: data first, then the IFDs that point at
  /// it; offsets are from the header's start.
  package struct TIFF {
    package var bigEndian = false
    package var bytes: [UInt8]

    package init(bigEndian: Bool = false, magic: Int = 42, prefix: [UInt8] = []) {
      self.bigEndian = bigEndian
      bytes = []
      bytes = (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]) + u16(magic) + u32(0) + prefix
    }

    package func u16(_ value: Int) -> [UInt8] { RawEndian(bigEndian: bigEndian).bytes16(value) }

    package func u32(_ value: Int) -> [UInt8] { RawEndian(bigEndian: bigEndian).bytes32(value) }

    /// Appends `data` (at an even offset) and returns where it starts.
    @discardableResult
    package mutating func append(_ data: [UInt8]) -> Int {
      if bytes.count % 2 == 1 { bytes.append(0) }
      let offset = bytes.count
      bytes += data
      return offset
    }

    /// Appends an IFD of `entries` linking to `next` (0: none) and returns its offset.
    @discardableResult
    package mutating func ifd(_ entries: [Entry], next: Int = 0) -> Int {
      append(ifdBytes(entries, next: next))
    }

    /// The bytes of an IFD of `entries` linking to `next`.
    package func ifdBytes(_ entries: [Entry], next: Int = 0) -> [UInt8] {
      var data = u16(entries.count)
      for entry in entries {
        data += u16(entry.tag) + u16(entry.type) + u32(entry.count)
        if entry.type == 3, entry.count == 1 {
          data += u16(entry.value) + [0, 0]
        } else {
          data += u32(entry.value)
        }
      }
      return data + u32(next)
    }

    /// Sets IFD0's offset in the header.
    package mutating func setFirstIFD(_ offset: Int) { patch(at: 4, u32(offset)) }

    /// Sets the link after the IFD at `ifd` to `next`.
    package mutating func link(_ ifd: Int, to next: Int) {
      let count =
        bigEndian
        ? Int(bytes[ifd]) << 8 | Int(bytes[ifd + 1]) : Int(bytes[ifd + 1]) << 8 | Int(bytes[ifd])
      patch(at: ifd + 2 + count * 12, u32(next))
    }

    package mutating func patch(at offset: Int, _ data: [UInt8]) {
      bytes.replaceSubrange(offset..<(offset + data.count), with: data)
    }
  }

  /// A CR2-like TIFF: IFD0 with a JPEG strip (Compression 6) and the orientation, IFD1 with a
  /// thumbnail, a SubIFD with a larger JPEG, and a SubIFD of lossless sensor data (SOF3).
  /// `preview`, when given, is IFD0's strip, where a camera keeps its full-size rendering.
  package static func cr2(orientation: Int = 6, preview: [UInt8]? = nil) -> [UInt8] {
    var tiff = TIFF(prefix: Array("CR".utf8) + [2, 0, 0, 0, 0, 0])
    let strip = preview ?? jpeg(width: 24, height: 16)
    let thumbnail = jpeg(width: 8, height: 8)
    let large = jpeg(width: 48, height: 32)
    let sensor = withFrameMarker(0xC3, jpeg(width: 64, height: 48))
    let stripAt = tiff.append(strip)
    let thumbnailAt = tiff.append(thumbnail)
    let largeAt = tiff.append(large)
    let sensorAt = tiff.append(sensor)
    let preview = tiff.ifd([
      .short(0x0103, 6), .long(0x0201, largeAt), .long(0x0202, large.count),
    ])
    let raw = tiff.ifd([
      .short(0x0103, 7), .long(0x0111, sensorAt), .long(0x0117, sensor.count),
    ])
    let subIFDs = tiff.append(tiff.u32(preview) + tiff.u32(raw))
    let ifd1 = tiff.ifd([
      .short(0x0103, 6), .long(0x0201, thumbnailAt), .long(0x0202, thumbnail.count),
    ])
    let ifd0 = tiff.ifd(
      [
        .short(0x0103, 6), .long(0x0111, stripAt), .short(0x0112, orientation),
        .long(0x0117, strip.count), Entry(tag: 0x014A, type: 4, count: 2, value: subIFDs),
      ], next: ifd1)
    tiff.setFirstIFD(ifd0)
    return tiff.bytes
  }

  /// A box: big-endian size, type, payload.
  package static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
    be32(8 + payload.count) + Array(type.utf8) + payload
  }

  package static func be32(_ value: Int) -> [UInt8] {
    (0..<4).map { UInt8(value >> (24 - 8 * $0) & 0xFF) }
  }
  package static func be16(_ value: Int) -> [UInt8] {
    [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }

  /// A CR3 box tree: ftyp `crx `, moov with Canon's uuid box (CMT1 of `orientation`, `cmt2`
  /// when given — a TIFF structure of the Exif tags, as Canon keeps them —, THMB 16×12), the
  /// preview uuid box with PRVW (40×30, or `prvw` of the size `prvwSize` states in the box's
  /// header), then mdat.
  package static func cr3(
    orientation: Int = 8, prvw: [UInt8]? = nil,
    prvwSize: PixelSize = PixelSize(width: 40, height: 30), cmt2: [UInt8]? = nil
  ) -> [UInt8] {
    let thumbnail = jpeg(width: 16, height: 12)
    let preview = prvw ?? jpeg(width: 40, height: 30)
    let cmt1 = ExifWriter(model: nil, orientation: orientation, dateTaken: nil).tiff
    let thmb = box(
      "THMB",
      [0, 0, 0, 0] + be16(16) + be16(12) + be32(thumbnail.count) + [0, 1, 0, 0] + thumbnail)
    let canon = box(
      "uuid",
      RawCR3.canonUUID + box("CNCV", Array("CanonCR3_001".utf8)) + box("CMT1", cmt1)
        + (cmt2.map { box("CMT2", $0) } ?? []) + thmb)
    let moov = box("moov", canon + box("mvhd", [UInt8](repeating: 0, count: 16)))
    let prvwBox = box(
      "PRVW",
      [0, 0, 0, 0] + be16(1) + be16(prvwSize.width) + be16(prvwSize.height) + be16(1)
        + be32(preview.count) + preview)
    let previewUUID = box("uuid", RawCR3.previewUUID + [0, 0, 0, 0, 0, 0, 0, 1] + prvwBox)
    let ftyp = box("ftyp", Array("crx ".utf8) + [0, 0, 0, 1] + Array("crx isom".utf8))
    return ftyp + moov + previewUUID + box("mdat", [UInt8](repeating: 0xAA, count: 64))
  }

  /// A RAF: the 16-byte magic, the camera's name, the JPEG's offset and length at 84 and 88,
  /// then the JPEG: `picture` when given, else one with EXIF of `orientation` when given.
  package static func raf(
    orientation: Int? = 3, jpegLength: Int? = nil, picture given: [UInt8]? = nil
  ) -> [UInt8] {
    var picture = given ?? jpeg(width: 32, height: 24)
    if let orientation, given == nil {
      picture = ExifWriter(model: "X-T5", orientation: orientation, dateTaken: nil).splicing(
        into: picture)
    }
    var header = Array("FUJIFILMCCD-RAW 0201FF129502".utf8)
    header += Array("X-T5".utf8)
    header += [UInt8](repeating: 0, count: 84 - header.count)
    header += be32(100) + be32(jpegLength ?? picture.count)
    header += [UInt8](repeating: 0, count: 100 - header.count)
    return header + picture
  }

  /// A CIFF (CRW): the header, and a root heap holding an 8×8 ThumbnailImage (0x2008) and a
  /// 0x300A heap with a 40×28 JpgFromRaw (0x2007) and ImageInfo (0x1810) of `rotation`
  /// degrees, and with `captureTime` (seconds on the camera's clock) and `makeModel` ("Canon",
  /// a NUL, the model) when given; `padding` bytes of sensor data before them.
  package static func crw(
    rotation: Int = 90, captureTime: Int? = nil, makeModel: String? = nil, padding: Int = 0
  ) -> [UInt8] {
    let picture = jpeg(width: 40, height: 28)
    func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
    /// A heap: the records' data, then the table, then the table's offset.
    func heap(_ records: [(tag: Int, data: [UInt8])]) -> [UInt8] {
      var data: [UInt8] = []
      var table = le16(records.count)
      for record in records {
        table += le16(record.tag) + le32(record.data.count) + le32(data.count)
        data += record.data
      }
      return data + table + le32(data.count)
    }
    let info = le32(1200) + le32(800) + le32(0x3F80_0000) + le32(rotation)
    var properties: [(tag: Int, data: [UInt8])] = [(0x2007, picture), (0x1810, info)]
    // CaptureTime: seconds on the camera's clock, a time zone code, zone info.
    if let captureTime { properties.append((0x180E, le32(captureTime) + le32(0) + le32(0))) }
    if let makeModel { properties.append((0x080A, Array(makeModel.utf8) + [0])) }
    let inner = heap(properties)
    // Padding first: a big CRW keeps its sensor data before the tables at its end.
    let sensor: [(tag: Int, data: [UInt8])] =
      padding > 0 ? [(0x0000, [UInt8](repeating: 0x5A, count: padding))] : []
    let root = heap(sensor + [(0x2008, jpeg(width: 8, height: 8)), (0x300A, inner)])
    let header = [0x49, 0x49] + le32(26) + Array("HEAPCCDR".utf8) + le32(0x0001_0002)
    return header + [UInt8](repeating: 0, count: 26 - header.count) + root
  }

  /// An RW2 (magic 0x55): IFD0 with orientation 5 and JpgFromRaw (0x002E), a 20×10 JPEG
  /// inside the tag's value; and where that JPEG starts.
  package static func rw2() -> (file: [UInt8], jpegAt: Int) {
    var tiff = TIFF(magic: 0x55)
    let picture = jpeg(width: 20, height: 10)
    let at = tiff.append(picture)
    tiff.setFirstIFD(
      tiff.ifd([.short(0x0112, 5), Entry(tag: 0x002E, type: 7, count: picture.count, value: at)]))
    return (tiff.bytes, at)
  }

  /// An ORF (magic "RO"): IFD0 (orientation 6) → EXIF IFD → Olympus maker note
  /// ("OLYMPUS\0II\3\0", its IFD at +12, offsets from the note's start; or, `oldStyle`,
  /// "OLYMP\0\1\0", its IFD at +8, offsets from the TIFF header) → CameraSettings (0x2020)
  /// → a 36×24 preview; IFD1 has an 8×8 thumbnail. And where the preview starts.
  package static func orf(oldStyle: Bool = false) -> (file: [UInt8], previewAt: Int) {
    var tiff = TIFF(magic: 0x4F52)
    let picture = jpeg(width: 36, height: 24)
    let thumbnail = jpeg(width: 8, height: 8)
    let thumbnailAt = tiff.append(thumbnail)
    let noteAt = tiff.bytes.count + tiff.bytes.count % 2  // where `append` puts it
    var note =
      oldStyle ? Array("OLYMP".utf8) + [0, 1, 0] : Array("OLYMPUS".utf8) + [0, 0x49, 0x49, 3, 0]
    let origin = oldStyle ? noteAt : 0
    let settingsAt = note.count + 2 + 12 + 4
    let settingsType = oldStyle ? 7 : 13
    note += tiff.u16(1) + tiff.u16(0x2020) + tiff.u16(settingsType) + tiff.u32(oldStyle ? 30 : 1)
    note += tiff.u32(origin + settingsAt) + tiff.u32(0)
    let pictureInNote = settingsAt + 2 + 2 * 12 + 4
    note += tiff.u16(2)
    note += tiff.u16(0x0101) + tiff.u16(4) + tiff.u32(1) + tiff.u32(origin + pictureInNote)
    note += tiff.u16(0x0102) + tiff.u16(4) + tiff.u32(1) + tiff.u32(picture.count)
    note += tiff.u32(0) + picture
    tiff.append(note)
    let exif = tiff.ifd([Entry(tag: 0x927C, type: 7, count: note.count, value: noteAt)])
    let ifd1 = tiff.ifd([.long(0x0201, thumbnailAt), .long(0x0202, thumbnail.count)])
    tiff.setFirstIFD(tiff.ifd([.long(0x8769, exif), .short(0x0112, 6)], next: ifd1))
    return (tiff.bytes, noteAt + pictureInNote)
  }

  /// A PEF (Make "PENTAX Corporation"): IFD0 → EXIF IFD → Pentax maker note ("AOC\0MM", its
  /// IFD at +6, offsets from the TIFF header) → a 30×20 preview (0x0004/0x0003). And where
  /// the note starts.
  package static func pef() -> (file: [UInt8], noteAt: Int) {
    var tiff = TIFF(bigEndian: true)
    let picture = jpeg(width: 30, height: 20)
    let pictureAt = tiff.append(picture)
    var note = Array("AOC".utf8) + [0, 0x4D, 0x4D]
    note += tiff.u16(2)
    note += tiff.u16(0x0003) + tiff.u16(4) + tiff.u32(1) + tiff.u32(picture.count)
    note += tiff.u16(0x0004) + tiff.u16(4) + tiff.u32(1) + tiff.u32(pictureAt)
    note += tiff.u32(0) + [UInt8](repeating: 0, count: 8)
    let noteAt = tiff.append(note)
    let exif = tiff.ifd([Entry(tag: 0x927C, type: 7, count: note.count, value: noteAt)])
    let make = tiff.append(Array("PENTAX Corporation".utf8) + [0])
    tiff.setFirstIFD(
      tiff.ifd([Entry(tag: 0x010F, type: 2, count: 19, value: make), .long(0x8769, exif)]))
    return (tiff.bytes, noteAt)
  }

  /// An MRW: `\0MRM`, a PRD block, then the TTW block's TIFF (offsets from its own start):
  /// IFD0 → EXIF IFD → a Minolta maker note (a bare IFD) with a 24×18 preview
  /// (0x0088/0x0089). And where the preview starts in the file.
  package static func mrw() -> (file: [UInt8], previewAt: Int) {
    var tiff = TIFF(bigEndian: true)
    let picture = jpeg(width: 24, height: 18)
    let pictureAt = tiff.append(picture)
    let note = TIFF(bigEndian: true).ifdBytes([
      .long(0x0088, pictureAt), .long(0x0089, picture.count),
    ])
    let noteAt = tiff.append(note)
    let exif = tiff.ifd([Entry(tag: 0x927C, type: 7, count: note.count, value: noteAt)])
    tiff.setFirstIFD(tiff.ifd([.long(0x8769, exif)]))
    let prd = Array("\0PRD".utf8) + be32(16) + [UInt8](repeating: 0, count: 16)
    let ttw = Array("\0TTW".utf8) + be32(tiff.bytes.count) + tiff.bytes
    let blocks = prd + ttw
    let file = Array("\0MRM".utf8) + be32(blocks.count) + blocks
    return (file, 8 + prd.count + 8 + pictureAt)
  }
}
