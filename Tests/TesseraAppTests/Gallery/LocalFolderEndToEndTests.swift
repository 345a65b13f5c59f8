import Foundation
import TesseraPhotoFormats
import TesseraTestSupport
import TesseraUtilities
import Testing

/// `tessera FOLDER` in a real terminal (tmux): the walk's photos under month headers, newest
/// first by the date taken (EXIF) or modified, the detail view's facts, and `y` copying the
/// path through OSC 52 into tmux's clipboard.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct LocalFolderEndToEndTests {
  static func write(_ bytes: [UInt8], to path: String, in root: URL, modified: String) throws {
    let url = root.appendingPathComponent(path)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(bytes).write(to: url)
    var formatter = ISO8601DateFormatter()
    formatter = ISO8601DateFormatter()
    try FileManager.default.setAttributes(
      [.modificationDate: formatter.date(from: modified)!], ofItemAtPath: url.path)
  }

  static func jpeg(_ blue: UInt8) throws -> [UInt8] {
    Array(
      try TestImages.encode(
        TestImages.gradientPixels(width: 160, height: 120, blue: blue), width: 160, height: 120,
        as: ".jpg"))
  }

  @Test func aFolderTreeReadsLikeACameraRollWithFactsAndCopy() throws {
    let root = TemporaryFolder.make(prefix: "tessera-e2e-folder")
    defer { try? FileManager.default.removeItem(at: root) }
    try Self.write(
      try Self.jpeg(10), to: "2023/old.jpg", in: root, modified: "2023-03-10T10:00:00Z")
    try Self.write(
      try Self.jpeg(90), to: "2024/new.jpg", in: root, modified: "2024-01-20T10:00:00Z")
    // Copied last year, taken in August 2024: EXIF wins over the modification time.
    let camera = ExifWriter(model: "Pixel 8", orientation: 1, dateTaken: "2024:08:15 10:00:00")
    try Self.write(
      camera.splicing(into: try Self.jpeg(170)), to: "phone/IMG_0001.jpg", in: root,
      modified: "2020-01-01T00:00:00Z")
    try Self.write(
      try Self.jpeg(250), to: ".hidden/secret.jpg", in: root, modified: "2025-01-01T00:00:00Z")

    let tmux = try Tmux(
      command: [
        GalleryBinary.path, root.path, "--graphics", "blocks", "--no-disk-cache", "--columns", "8",
      ],
      columns: 120, rows: 40)
    let screen = try tmux.waitFor("the photos under their months, dates read") {
      let plain = Tmux.plain($0)
      return plain.contains("Aug 2024 · 1 photo") && plain.contains("Mar 2023 · 1 photo")
        && plain.contains("photos 1–3 of 3") && !plain.contains("walking")
        && !plain.contains("reading dates")
    }
    let lines = Tmux.plain(screen).split(separator: "\n").map(String.init)
    let order = ["Aug 2024", "Jan 2024", "Mar 2023"].map { month in
      lines.firstIndex { $0.contains(month) } ?? -1
    }
    #expect(order == order.sorted() && !order.contains(-1), "months out of order: \(order)")
    #expect(!Tmux.plain(screen).contains("secret.jpg"))

    // The first photo is the one taken in August: its facts, then its path copied.
    try tmux.send("Enter")
    let path = root.appendingPathComponent("phone/IMG_0001.jpg").path
    try tmux.waitFor("the detail view's facts") {
      let plain = Tmux.plain($0)
      return plain.contains("160 × 120 px") && plain.contains("taken 2024-08-15 10:00 · Pixel 8")
        && plain.contains(path)
    }
    _ = try Spawn.run(
      [
        "env", "TERM=xterm-256color", "tmux", "-L", tmux.socket, "set-option", "-g",
        "set-clipboard", "on",
      ])
    try tmux.send("y")
    try tmux.waitFor("the copy confirmed") { Tmux.plain($0).contains("copied the path") }
    let buffer = try Spawn.run(
      ["env", "TERM=xterm-256color", "tmux", "-L", tmux.socket, "show-buffer"])
    #expect(buffer.output == path)
  }

  @Test func versionPrintsAndExits() throws {
    let result = try Spawn.run([GalleryBinary.path, "--version"])
    #expect(result.status == 0)
    #expect(
      result.output.trimmingCharacters(in: .whitespacesAndNewlines).range(
        of: #"^\d+\.\d+\.\d+$"#, options: .regularExpression) != nil)
  }
}
