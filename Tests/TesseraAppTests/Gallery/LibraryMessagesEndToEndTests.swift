import Foundation
import TesseraTestSupport
import TesseraUtilities
import Testing

/// A library that talks on standard error never writes over the gallery: libjxl prints
/// `JXL_FAILURE: …` lines for a damaged JPEG XL file; they go to the log, the tile says the
/// file did not decode, and after the gallery one line says where the log is.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct LibraryMessagesEndToEndTests {
  @Test func aTalkativeLibraryWritesToTheLogNotTheScreen() throws {
    let root = try PathsInAndOutEndToEndTests.folder()
    defer { try? FileManager.default.removeItem(at: root) }
    // A noisy JPEG XL (libjxl codes noise with AC coefficients), every 97th byte of its
    // second half inverted: libjxl reports the broken coefficients on standard error.
    var random = SplitMix64(seed: 23)
    let noise = (0..<(512 * 384)).flatMap { _ in
      let value = UInt8(truncatingIfNeeded: random.next())
      return [value, value &+ 40, value &+ 80, 255]
    }
    var jxl = [UInt8](try TestImages.encode(noise, width: 512, height: 384, as: ".jxl"))
    for index in stride(from: jxl.count / 2, to: jxl.count, by: 97) { jxl[index] ^= 0xFF }
    try Data(jxl).write(to: root.appendingPathComponent("f.jxl"))
    let state = root.appendingPathComponent("state")
    let status = root.appendingPathComponent("status")
    // Standard error is the pane itself, as in a person's terminal.
    let tmux = try Tmux(
      command: [
        "sh", "-c",
        "cd \(Tmux.quote(root.path)) && \"$0\" . --sort name --columns 6 --graphics blocks --no-disk-cache; "
          // The shell stays: tmux 3.3a sometimes blanks a dead pane's screen ("Pane is
          // dead"), though every byte reached it (seen with pipe-pane). The server is killed
          // with the test.
          + "echo $? > \(Tmux.quote(status.path)); exec sleep 120",
        GalleryBinary.path,
      ], columns: 240, rows: 30,
      environment: ["XDG_STATE_HOME": state.path])
    let screen = try tmux.waitFor("five photos decoded, one failed") {
      PathsInAndOutEndToEndTests.ready(6)($0) && Tmux.plain($0).contains("✓ 5 loaded")
        && Tmux.plain($0).contains("✗ 1 failed")
    }
    #expect(!Tmux.plain(screen).contains("JXL_FAILURE"))
    try tmux.send("q")
    try PathsInAndOutEndToEndTests.exited(tmux, in: root)
    let log = try String(
      contentsOf: state.appendingPathComponent("tessera/tessera.log"), encoding: .utf8)
    #expect(log.contains("JXL_FAILURE"))
    // Wide enough for the line; a wrapped one would be unwrapped.
    let unwrapped = { (screen: String) in
      Tmux.plain(screen).replacingOccurrences(of: "\n", with: "")
    }
    let after = try tmux.waitFor("the line naming the log") {
      unwrapped($0).contains("tessera: messages from the libraries are in")
    }
    #expect(unwrapped(after).contains(state.path + "/tessera/tessera.log"))
  }
}
