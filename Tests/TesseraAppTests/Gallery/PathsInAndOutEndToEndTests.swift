import Foundation
import TesseraTestSupport
import Testing

/// Photos in, paths out, as a script uses the gallery: `find … | tessera -i -o`, marks made
/// with keys in tmux, and the paths printed on standard output once the terminal is given
/// back (the gallery draws on /dev/tty); `-0` and `--pick`; Ctrl-C prints nothing.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct PathsInAndOutEndToEndTests {
  /// Five JPEGs named a…e (modified so that the date order is the reverse of the names) and
  /// a text file among them.
  static func folder() throws -> URL {
    let root = TemporaryFolder.make(prefix: "tessera-paths")
    for (index, name) in ["a", "b", "c", "d", "e"].enumerated() {
      try LocalFolderEndToEndTests.write(
        try LocalFolderEndToEndTests.jpeg(UInt8(40 * index)), to: "\(name).jpg", in: root,
        modified: "2024-0\(9 - index)-01T10:00:00Z")
    }
    try Data("not a photo".utf8).write(to: root.appendingPathComponent("notes.txt"))
    return root
  }

  /// Runs `script` (sh) in tmux with the gallery as `$0`, standard output to `out`; the
  /// shell writes the script's exit status to `status` after it ends (tmux 3.3a's own
  /// `pane_dead_status` is sometimes never set).
  static func run(_ script: String, in root: URL) throws -> (Tmux, URL) {
    let out = root.appendingPathComponent("out.bin")
    let status = root.appendingPathComponent("status")
    try? FileManager.default.removeItem(at: status)
    let tmux = try Tmux(
      command: [
        "sh", "-c",
        "cd \(Tmux.quote(root.path)) && { \(script) > \(Tmux.quote(out.path)); }; "
          + "echo $? > \(Tmux.quote(status.path))",
        GalleryBinary.path,
      ], columns: 100, rows: 30)
    return (tmux, out)
  }

  static func ready(_ count: Int) -> (String) -> Bool {
    {
      Tmux.plain($0).contains("photos 1–\(count) of \(count)")
        && !Tmux.plain($0).contains("walking")
    }
  }

  /// Waits for the script run in `root` to end, and expects it to have exited with 0.
  static func exited(_ tmux: Tmux, in root: URL) throws {
    let file = root.appendingPathComponent("status")
    try tmux.waitFor("the gallery to exit") { _ in FileManager.default.fileExists(atPath: file.path)
    }
    var status = ""
    for _ in 0..<100 where status.isEmpty {
      status = ((try? String(contentsOf: file, encoding: .utf8)) ?? "")
        .trimmingCharacters(in: .whitespacesAndNewlines)
      if status.isEmpty { Thread.sleep(forTimeInterval: 0.01) }
    }
    #expect(status == "0", "exit status \(status)")
  }

  @Test func twoMarkedPhotosComeOutInTheOrderGiven() throws {
    let root = try Self.folder()
    defer { try? FileManager.default.removeItem(at: root) }
    // Given in name order, one line not a photo, one missing.
    let (tmux, out) = try Self.run(
      "(ls *.jpg notes.txt; echo missing.jpg) | \"$0\" -i -o --graphics blocks --no-disk-cache",
      in: root)
    let screen = try tmux.waitFor("the five photos", Self.ready(5))
    #expect(Tmux.plain(screen).contains("2 lines of standard input are not readable image files"))
    // The order given (names), not the dates' (which would put e first).
    let plain = Tmux.plain(screen)
    let positions = ["a.jpg", "b.jpg", "e.jpg"].map { plain.range(of: $0)?.lowerBound }
    #expect(positions.allSatisfy { $0 != nil } && positions == positions.sorted { $0! < $1! })
    try tmux.send("m", "l", "l", "m")
    try tmux.waitFor("two marks") { Tmux.plain($0).contains("● 2 marked") }
    try tmux.send("q")
    try Self.exited(tmux, in: root)
    let printed = try String(contentsOf: out, encoding: .utf8)
    #expect(printed == "a.jpg\nc.jpg\n")
  }

  @Test func nulSeparatedInAndOutAndARangeOfMarks() throws {
    let root = try Self.folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let (tmux, out) = try Self.run(
      "find . -name '*.jpg' -print0 | sort -z | \"$0\" -i -0 -o --graphics blocks --no-disk-cache",
      in: root)
    try tmux.waitFor("the five photos", Self.ready(5))
    // v marks as the selection moves: b, c, d; then * inverts: a and e.
    try tmux.send("l", "v", "l", "l", "v")
    try tmux.waitFor("three marks") { Tmux.plain($0).contains("● 3 marked") }
    try tmux.send("*")
    try tmux.waitFor("two marks after inverting") { Tmux.plain($0).contains("● 2 marked") }
    try tmux.send("q")
    try Self.exited(tmux, in: root)
    let printed = try Data(contentsOf: out)
    #expect(printed == Data("./a.jpg\u{0}./e.jpg\u{0}".utf8))
  }

  @Test func pickPrintsTheSelectedPhotoOnEnterAndCtrlCPrintsNothing() throws {
    let root = try Self.folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let (picker, picked) = try Self.run(
      "\"$0\" . --pick --sort name --graphics blocks --no-disk-cache", in: root)
    try picker.waitFor("the five photos", Self.ready(5))
    try picker.send("l", "Enter")
    try Self.exited(picker, in: root)
    #expect(try String(contentsOf: picked, encoding: .utf8) == "./b.jpg\n")

    let (interrupted, nothing) = try Self.run(
      "\"$0\" . -o --sections none --graphics blocks --no-disk-cache", in: root)
    try interrupted.waitFor("the five photos", Self.ready(5))
    try interrupted.send("m", "C-c")
    try Self.exited(interrupted, in: root)
    #expect(try Data(contentsOf: nothing).isEmpty)
  }
}
