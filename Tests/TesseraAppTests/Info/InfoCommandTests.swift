import Foundation
import TesseraPhotoFormats
import TesseraTestSupport
import TesseraUtilities
import Testing

/// `tessera info` run as a script runs it, on files the test writes: the facts the gallery
/// reads, one line a file, a refusal said on its own line and in the exit status.
@Suite(.timeLimit(.minutes(2)))
struct InfoCommandTests {
  static func jpeg() throws -> [UInt8] {
    Array(
      try TestImages.encode(
        TestImages.gradientPixels(width: 160, height: 120, blue: 90), width: 160, height: 120,
        as: ".jpg"))
  }

  @Test func tabSeparatedLinesSayWhatTheGalleryReadsAndWhyAFileWasNot() throws {
    let folder = TemporaryFolder.make(prefix: "tessera-info")
    defer { try? FileManager.default.removeItem(at: folder) }
    // Turned a quarter by its orientation: shown 120 wide.
    let camera = ExifWriter(model: "Pixel 8", orientation: 6, dateTaken: "2024:08:15 10:00:07")
    let photo = folder.appendingPathComponent("IMG\t0001.jpg").path
    try Data(camera.splicing(into: try Self.jpeg())).write(to: URL(fileURLWithPath: photo))
    let plain = folder.appendingPathComponent("plain.jpg").path
    try Data(try Self.jpeg()).write(to: URL(fileURLWithPath: plain))
    let link = folder.appendingPathComponent("link.jpg").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: plain)

    let run = try Spawn.run([GalleryBinary.path, "info", "--tsv", photo, plain, link])
    let lines = run.output.split(separator: "\n").map(String.init)
    #expect(
      lines == [
        folder.path + "/IMG?0001.jpg\t120x160\t2024-08-15 10:00:07\tPixel 8\t-\t-",
        "\(plain)\t160x120\t-\t-\t-\t-",
        "\(link)\t-\t-\t-\t-\tis a symbolic link",
      ])
    #expect(run.status == 1)
  }

  /// A file named in Latin-1 ("é" is the byte E9) is read by its own bytes from the command
  /// line and shown with U+FFFD; it "did not exist" before, its name repaired into another.
  @Test func aNameThatIsNotUTF8IsReadByItsBytes() throws {
    let folder = TemporaryFolder.make(prefix: "tessera-info")
    defer { try? FileManager.default.removeItem(at: folder) }
    let photo = FileSystemName.string(Array((folder.path + "/caf").utf8) + [0xE9, 0x2E, 0x6A])
    let bytes = try Self.jpeg()
    let descriptor = FileSystemName.withCString(photo) {
      open($0, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    }
    try #require(descriptor >= 0, "errno \(errno)")
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, bytes.count) }
    close(descriptor)
    let run = try Spawn.run([GalleryBinary.path, "info", "--tsv", photo])
    #expect(run.output == folder.path + "/caf\u{FFFD}.j\t160x120\t-\t-\t-\t-\n")
    #expect(run.status == 0)
  }

  @Test func alignedTextForAPersonExitsZeroWhenEveryFileWasRead() throws {
    let folder = TemporaryFolder.make(prefix: "tessera-info")
    defer { try? FileManager.default.removeItem(at: folder) }
    let long = folder.appendingPathComponent("a-longer-name.jpg").path
    let camera = ExifWriter(model: "X-T5", orientation: 1, dateTaken: "2023:01:02 03:04:05")
    try Data(camera.splicing(into: try Self.jpeg())).write(to: URL(fileURLWithPath: long))
    let short = folder.appendingPathComponent("b.jpg").path
    try Data(try Self.jpeg()).write(to: URL(fileURLWithPath: short))

    let run = try Spawn.run([GalleryBinary.path, "info", long, short])
    #expect(
      run.output.split(separator: "\n").map(String.init) == [
        "\(long)  160x120  2023-01-02 03:04:05  -         X-T5",
        "\(short)" + String(repeating: " ", count: long.count - short.count)
          + "  160x120  -                    -         -",
      ])
    #expect(run.status == 0)
  }

  /// The rating that counts: a sidecar's (by the whole name or the stem), else the file's own
  /// XMP; in stars for a person, a number for a script.
  @Test func theRatingIsTheSidecarsElseTheFilesOwn() throws {
    let folder = TemporaryFolder.make(prefix: "tessera-info")
    defer { try? FileManager.default.removeItem(at: folder) }
    let paths = ["a.jpg", "b.jpg", "c.jpg"].map { folder.appendingPathComponent($0).path }
    for path in paths { try Data(try Self.jpeg()).write(to: URL(fileURLWithPath: path)) }
    try ExifTool.run(["-q", "-overwrite_original", "-XMP-xmp:Rating=2", paths[0], paths[1]])
    try Data(XMPNamespaces.packet(attributes: #"xmp:Rating="4""#))
      .write(to: URL(fileURLWithPath: paths[0] + ".xmp"))
    try Data(XMPNamespaces.packet(attributes: #"xmp:Rating="-1""#))
      .write(to: folder.appendingPathComponent("c.xmp"))
    let tsv = try Spawn.run([GalleryBinary.path, "info", "--tsv"] + paths)
    #expect(
      tsv.output.split(separator: "\n").map { $0.split(separator: "\t")[4] } == ["4", "2", "-1"])
    let aligned = try Spawn.run([GalleryBinary.path, "info"] + paths)
    let lines = aligned.output.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines.first?.contains("  ★★★★  ") == true, "\(lines)")
    #expect(lines.dropFirst().first?.contains("  ★★  ") == true, "\(lines)")
    #expect(lines.last?.contains("  rejected  ") == true, "\(lines)")
  }

  /// A RAW+JPEG pair's sidecar by the RAW's name (darktable's and digiKam's) is the JPEG's, as
  /// in the gallery; a symbolic link named as a sidecar is none.
  @Test func aPairsSidecarByTheRAWsNameCountsAndALinkDoesNot() throws {
    let folder = TemporaryFolder.make(prefix: "tessera-info")
    defer { try? FileManager.default.removeItem(at: folder) }
    let paths = ["IMG_1.JPG", "IMG_2.JPG"].map { folder.appendingPathComponent($0).path }
    for path in paths { try Data(try Self.jpeg()).write(to: URL(fileURLWithPath: path)) }
    // The RAW's bytes do not matter here: its name beside the JPEG pairs them.
    try Data([0]).write(to: folder.appendingPathComponent("IMG_1.CR2"))
    try Data(XMPNamespaces.packet(attributes: #"xmp:Rating="5""#))
      .write(to: folder.appendingPathComponent("IMG_1.CR2.xmp"))
    let elsewhere = folder.appendingPathComponent("elsewhere.xmp")
    try Data(XMPNamespaces.packet(attributes: #"xmp:Rating="3""#)).write(to: elsewhere)
    try FileManager.default.createSymbolicLink(
      at: folder.appendingPathComponent("IMG_2.JPG.xmp"), withDestinationURL: elsewhere)
    let tsv = try Spawn.run([GalleryBinary.path, "info", "--tsv"] + paths)
    #expect(
      tsv.output.split(separator: "\n").map { $0.split(separator: "\t")[4] } == ["5", "-"],
      "\(tsv.output)")
  }
}
