import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraPhotoFormats

/// The RAW preview locator on files built byte by byte: the largest JPEG of each container is
/// found, lossless sensor data is not taken for one, orientation is read, and hostile
/// structures (loops, offsets past the end, truncation, huge counts) end in a bounded number
/// of reads with a clear error, never a trap.
@Suite(.timeLimit(.minutes(1))) struct RawPreviewTests {
  /// Reads of `bytes` as a file, counted; every read must lie inside it.
  final class Reads {
    var count = 0
    var bytes = 0
  }

  private func locate(
    _ file: [UInt8], reads: Reads = Reads()
  ) throws(RawPreviewError) -> RawPreview {
    try RawPreviewLocator.largestPreview(fileSize: file.count) { offset, count in
      #expect(offset >= 0 && count >= 0 && offset + count <= file.count)
      reads.count += 1
      reads.bytes += count
      return Array(file[offset..<(offset + count)])
    }
  }

  private func error(_ file: [UInt8]) -> RawPreviewError? {
    do {
      _ = try locate(file)
      return nil
    } catch {
      return error
    }
  }

  /// The JPEG the preview names, as a sanity check of offset and length.
  private func isJPEG(_ preview: RawPreview, in file: [UInt8]) -> Bool {
    preview.offset + preview.length <= file.count && file[preview.offset] == 0xFF
      && file[preview.offset + 1] == 0xD8 && file[preview.offset + preview.length - 2] == 0xFF
      && file[preview.offset + preview.length - 1] == 0xD9
  }

  @Test func tiffTakesTheLargestOfIFD0StripIFD1AndSubIFDs() throws {
    let file = RawFixtures.cr2(orientation: 6)
    let preview = try locate(file)
    #expect(preview.width == 48 && preview.height == 32)
    #expect(preview.orientation == 6)
    #expect(preview.container == "TIFF")
    #expect(isJPEG(preview, in: file))
  }

  @Test func losslessSensorDataIsNeverThePreview() throws {
    // The SOF3 strip (64×48) is larger than every real preview, and is skipped.
    let file = RawFixtures.cr2()
    #expect(try locate(file).width == 48)
    // A file whose only JPEG is sensor data has none to show.
    var tiff = RawFixtures.TIFF(prefix: Array("CR".utf8) + [2, 0, 0, 0, 0, 0])
    let sensor = RawFixtures.withFrameMarker(0xC3, RawFixtures.jpeg(width: 32, height: 32))
    let at = tiff.append(sensor)
    tiff.setFirstIFD(tiff.ifd([.short(0x0103, 7), .long(0x0111, at), .long(0x0117, sensor.count)]))
    #expect(error(tiff.bytes) == .noPreview(format: "CR2"))
    #expect(error(tiff.bytes)?.description == "no JPEG preview in this CR2")
  }

  @Test func progressivePreviewsCountAndTheLargerAreaWins() throws {
    var tiff = RawFixtures.TIFF(bigEndian: true)
    let small = RawFixtures.jpeg(width: 64, height: 8)  // longer in bytes? fewer pixels
    let large = RawFixtures.withFrameMarker(0xC2, RawFixtures.jpeg(width: 30, height: 30))
    let smallAt = tiff.append(small)
    let largeAt = tiff.append(large)
    let ifd1 = tiff.ifd([.long(0x0201, largeAt), .long(0x0202, large.count)])
    tiff.setFirstIFD(tiff.ifd([.long(0x0201, smallAt), .long(0x0202, small.count)], next: ifd1))
    let preview = try locate(tiff.bytes)
    #expect(preview.width == 30 && preview.height == 30)
    #expect(preview.orientation == 1)
  }

  @Test func aPreviewPastTheEndIsRefused() throws {
    var tiff = RawFixtures.TIFF()
    let picture = RawFixtures.jpeg(width: 16, height: 16)
    let at = tiff.append(picture)
    // Its length reaches one byte past the file's end.
    let ifd0 = tiff.ifd([.long(0x0201, at), .long(0x0202, 0)])
    tiff.setFirstIFD(ifd0)
    let fileSize = tiff.bytes.count
    tiff.patch(at: ifd0 + 2 + 12 + 8, tiff.u32(fileSize - at + 1))
    #expect(error(tiff.bytes) == .endsEarly(format: "TIFF"))
    #expect(error(tiff.bytes)?.description == "the TIFF file ends early")
    // Forged to the largest offsets and lengths: refused the same way, no overflow.
    tiff.patch(at: ifd0 + 2 + 8, tiff.u32(0xFFFF_FFFF))
    tiff.patch(at: ifd0 + 2 + 12 + 8, tiff.u32(0xFFFF_FFFF))
    #expect(error(tiff.bytes) == .endsEarly(format: "TIFF"))
    // With a sound preview beside it, the sound one is taken.
    let sound = tiff.ifd([.long(0x0201, at), .long(0x0202, picture.count)])
    tiff.link(ifd0, to: sound)
    #expect(try locate(tiff.bytes).width == 16)
  }

  @Test func ifdLoopsEnd() throws {
    var tiff = RawFixtures.TIFF()
    let picture = RawFixtures.jpeg(width: 8, height: 8)
    let at = tiff.append(picture)
    let ifd1 = tiff.ifd([.long(0x0201, at), .long(0x0202, picture.count)])
    let ifd0 = tiff.ifd([Entry(tag: 0x014A, type: 13, count: 1, value: 0)], next: ifd1)
    tiff.link(ifd1, to: ifd0)  // IFD0 → IFD1 → IFD0 …
    tiff.patch(at: ifd0 + 2 + 8, tiff.u32(ifd0))  // … and IFD0's SubIFD is IFD0
    tiff.setFirstIFD(ifd0)
    let reads = Reads()
    let preview = try locate(tiff.bytes, reads: reads)
    #expect(preview.width == 8)
    #expect(reads.count < 20)
  }

  private typealias Entry = RawFixtures.Entry

  @Test func aTruncatedFileSaysSo() throws {
    let whole = RawFixtures.cr2()
    // Cut before its IFDs (written after the JPEGs they name): IFD0 lies past the end.
    let cut = Array(whole.prefix(200))
    #expect(error(cut) == .endsEarly(format: "CR2"))
    // Cut inside the header: not recognisable as anything.
    #expect(error(Array(whole.prefix(6))) == .notRaw)
    #expect(error([]) == .notRaw)
    // A CR3 cut inside mdat: the boxes before it still hold the previews.
    let cr3 = RawFixtures.cr3()
    #expect(try locate(Array(cr3.dropLast(10))).width == 40)
    // … cut inside the PRVW: the thumbnail is what is left.
    let prvwEnd = cr3.count - 72
    #expect(try locate(Array(cr3.prefix(prvwEnd - 20))).width == 16)
    // A RAF whose JPEG is cut.
    let raf = RawFixtures.raf()
    #expect(error(Array(raf.dropLast(1))) == .endsEarly(format: "RAF"))
    #expect(error(Array(raf.prefix(90))) == .endsEarly(format: "RAF"))
  }

  @Test func cr3PRVWIsLargerThanTHMBAndCMT1GivesTheOrientation() throws {
    let file = RawFixtures.cr3(orientation: 8)
    let preview = try locate(file)
    #expect(preview.container == "CR3")
    #expect(preview.width == 40 && preview.height == 30)
    #expect(preview.orientation == 8)
    #expect(isJPEG(preview, in: file))
    // Without a PRVW JPEG (sensor data in its place), the THMB is the preview.
    let thumbnailOnly = RawFixtures.cr3(
      prvw: RawFixtures.withFrameMarker(0xC3, RawFixtures.jpeg(width: 40, height: 30)))
    #expect(try locate(thumbnailOnly).width == 16)
  }

  @Test func rafNamesItsJPEGAndTheJPEGTheOrientation() throws {
    let file = RawFixtures.raf(orientation: 3)
    let preview = try locate(file)
    #expect(preview.container == "RAF")
    #expect(preview.offset == 100)
    #expect(preview.width == 32 && preview.height == 24)
    #expect(preview.orientation == 3)
    #expect(isJPEG(preview, in: file))
    #expect(try locate(RawFixtures.raf(orientation: nil)).orientation == 1)
  }

  @Test(arguments: [(90, 6), (180, 3), (270, 8), (-90, 8), (0, 1)])
  func crwJpgFromRawInANestedHeapIsLargerThanTheThumbnail(
    rotation: Int, orientation: Int
  ) throws {
    let file = RawFixtures.crw(rotation: rotation)
    let preview = try locate(file)
    #expect(preview.container == "CRW")
    #expect(preview.width == 40 && preview.height == 28)
    #expect(preview.orientation == orientation)
    #expect(isJPEG(preview, in: file))
  }

  @Test func rw2JpgFromRawIsInsideItsTag() throws {
    let (file, jpegAt) = RawFixtures.rw2()
    let preview = try locate(file)
    #expect(preview.width == 20 && preview.orientation == 5)
    #expect(preview.offset == jpegAt)
    #expect(error(Array(file.prefix(jpegAt))) == .endsEarly(format: "RW2"))
  }

  @Test(arguments: [false, true])
  func orfPreviewIsInTheOlympusMakerNote(oldStyle: Bool) throws {
    let (file, previewAt) = RawFixtures.orf(oldStyle: oldStyle)
    let preview = try locate(file)
    #expect(preview.width == 36 && preview.height == 24 && preview.orientation == 6)
    #expect(preview.offset == previewAt)
  }

  @Test func pefPreviewIsInThePentaxMakerNote() throws {
    var (file, noteAt) = RawFixtures.pef()
    #expect(try locate(file).width == 30)
    // Named by its Make when it has no preview.
    file.replaceSubrange(noteAt..<(noteAt + 3), with: Array("XYZ".utf8))
    #expect(error(file) == .noPreview(format: "PEF"))
  }

  @Test func mrwPreviewIsInTheMinoltaMakerNoteOfItsTIFFBlock() throws {
    let (file, previewAt) = RawFixtures.mrw()
    let preview = try locate(file)
    #expect(preview.container == "MRW")
    #expect(preview.width == 24)
    #expect(preview.offset == previewAt)
  }

  @Test func anythingElseIsNotRaw() {
    let jpeg = RawFixtures.jpeg(width: 8, height: 8)
    #expect(error(jpeg) == .notRaw)
    #expect(error(Array("GIF89a and then some".utf8)) == .notRaw)
    #expect(
      error([0, 0, 0, 0x18] + Array("ftypheic".utf8) + [UInt8](repeating: 0, count: 16)) == .notRaw)
    #expect(RawPreviewError.notRaw.description == "not a RAW file")
  }

  /// A chain of 70 IFDs of 512 entries each naming 2^32 − 1 SubIFDs (the first ones the
  /// IFDs themselves): the walk stops at its limits and the reading at its budget, with a
  /// clear error, long before the forged counts.
  @Test func hostileCountsStayWithinTheBudget() throws {
    var tiff = RawFixtures.TIFF()
    let ifdSize = 2 + 512 * 12 + 4
    let list = 8
    let firstIFD = list + 17 * 4
    tiff.append((0..<17).flatMap { tiff.u32(firstIFD + $0 * ifdSize) })
    for index in 0..<70 {
      let entries = (0..<512).map { _ in
        Entry(tag: 0x014A, type: 4, count: 0xFFFF_FFFF, value: list)
      }
      let at = tiff.ifd(entries, next: firstIFD + (index + 1) * ifdSize)
      #expect(at == firstIFD + index * ifdSize)
    }
    tiff.setFirstIFD(firstIFD)
    let reads = Reads()
    #expect(throws: RawPreviewError.searchLimit(format: "TIFF")) {
      try locate(tiff.bytes, reads: reads)
    }
    #expect(reads.bytes <= RawByteReader.maxBytes)
    #expect(reads.count <= RawByteReader.maxReads)
    // A file that says it is far larger than what `read` can give.
    #expect(throws: RawPreviewError.self) {
      try RawPreviewLocator.largestPreview(fileSize: Int.max) { offset, count in
        offset == 0 ? Array(RawFixtures.cr2().prefix(count)) : nil
      }
    }
  }

  @Test func aFailingReadIsUnreadable() {
    let file = RawFixtures.cr2()
    #expect(throws: RawPreviewError.unreadable("a read failed")) {
      try RawPreviewLocator.largestPreview(fileSize: file.count) { offset, count in
        offset == 0 ? Array(file[0..<count]) : nil
      }
    }
  }

  @Test func atPathReadsARegularFileAndRefusesTheRest() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("tessera-raw-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("IMG_0001.CR3")
    let bytes = RawFixtures.cr3()
    try Data(bytes).write(to: file)
    #expect(try RawPreviewLocator.largestPreview(atPath: file.path) == (try locate(bytes)))
    let link = folder.appendingPathComponent("link.cr3")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
    #expect(throws: RawPreviewError.unreadable("a symbolic link")) {
      try RawPreviewLocator.largestPreview(atPath: link.path)
    }
    #expect(throws: RawPreviewError.unreadable("not a regular file")) {
      try RawPreviewLocator.largestPreview(atPath: folder.path)
    }
    #expect(throws: RawPreviewError.unreadable("no such file")) {
      try RawPreviewLocator.largestPreview(atPath: folder.appendingPathComponent("none").path)
    }
    #expect(
      RawPreviewLocator.extensions.isSuperset(of: ["cr2", "cr3", "nef", "arw", "dng", "raf"]))
  }

  /// Real camera files in the folder `TESSERA_RAW_SAMPLES` names: every one is searched
  /// without a trap, and a preview found is a JPEG inside the file. Prints what it found.
  @Test(
    .enabled(
      if: ProcessInfo.processInfo.environment["TESSERA_RAW_SAMPLES"] != nil,
      "set TESSERA_RAW_SAMPLES to a folder of real RAW files"))
  func realCameraFiles() throws {
    let folder = try #require(ProcessInfo.processInfo.environment["TESSERA_RAW_SAMPLES"])
    let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    for name in names {
      let path = (folder as NSString).appendingPathComponent(name)
      let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
      do {
        let preview = try RawPreviewLocator.largestPreview(atPath: path)
        #expect(bytes[preview.offset] == 0xFF && bytes[preview.offset + 1] == 0xD8)
        #expect(preview.offset + preview.length <= bytes.count)
        print(
          "raw-sample \(name): \(preview.container) offset \(preview.offset) length "
            + "\(preview.length) \(preview.width ?? 0)×\(preview.height ?? 0) orientation "
            + "\(preview.orientation)")
      } catch {
        print("raw-sample \(name): \(error)")
      }
    }
  }

  /// Writes the fixtures as the fuzzer's seeds to the folder `TESSERA_RAW_CORPUS` names.
  @Test(
    .enabled(
      if: ProcessInfo.processInfo.environment["TESSERA_RAW_CORPUS"] != nil,
      "set TESSERA_RAW_CORPUS to a folder to write the fuzz seeds to"))
  func writeFuzzSeeds() throws {
    let folder = try #require(ProcessInfo.processInfo.environment["TESSERA_RAW_CORPUS"])
    let seeds: [(String, [UInt8])] = [
      ("cr2-like.tif", RawFixtures.cr2()), ("cr3-boxes.cr3", RawFixtures.cr3()),
      ("raf-header.raf", RawFixtures.raf()), ("ciff-heap.crw", RawFixtures.crw()),
      ("rw2-tag.rw2", RawFixtures.rw2().file), ("orf-makernote.orf", RawFixtures.orf().file),
      ("pef-makernote.pef", RawFixtures.pef().file), ("mrw-blocks.mrw", RawFixtures.mrw().file),
      ("orf-old-makernote.orf", RawFixtures.orf(oldStyle: true).file),
    ]
    for (name, bytes) in seeds {
      try Data(bytes).write(to: URL(fileURLWithPath: folder).appendingPathComponent(name))
    }
  }
}
