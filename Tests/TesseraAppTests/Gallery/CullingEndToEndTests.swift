import Foundation
import TesseraTestSupport
import Testing

/// What culling tools decided shows on the tiles and in the detail view: stars, a reject, a
/// colour label, read from the sidecars darktable and Lightroom write.
@Suite(.timeLimit(.minutes(2))) struct CullingEndToEndTests {
  @Test func ratingsRejectsAndLabelsFromSidecarsShowOnTheTiles() throws {
    let root = TemporaryFolder.make(prefix: "tessera-culling")
    defer { try? FileManager.default.removeItem(at: root) }
    for (index, name) in ["a", "b", "c"].enumerated() {
      try LocalFolderEndToEndTests.write(
        try LocalFolderEndToEndTests.jpeg(UInt8(60 * index)), to: "\(name).jpg", in: root,
        modified: "2024-05-0\(index + 1)T10:00:00Z")
    }
    // darktable's way: the whole name, properties as attributes.
    try Data(XMPNamespaces.packet(attributes: #"xmp:Rating="3" xmp:Label="Red""#))
      .write(to: root.appendingPathComponent("a.jpg.xmp"))
    // Lightroom's way, written by exiftool: the stem; a reject.
    try ExifTool.run(["-q", "-o", root.appendingPathComponent("b.xmp").path, "-XMP-xmp:Rating=-1"])

    let tmux = try ActingOnPhotosEndToEndTests.gallery("--sort name", in: root)
    let shown = try tmux.waitFor("the three photos with their ratings") {
      PathsInAndOutEndToEndTests.ready(3)($0) && Tmux.plain($0).contains("★★★ a.jpg")
        && Tmux.plain($0).contains("✗ b.jpg")
    }
    let plain = Tmux.plain(shown)
    #expect(plain.contains("▌★★★ a.jpg"), "\(plain)")
    #expect(!plain.contains("★ c.jpg") && !plain.contains("✗ c.jpg"), "\(plain)")
    // The label's mark is drawn in its colour; the reject's caption is dimmed.
    #expect(shown.contains("\u{1B}[38;2;220;50;50m▌"), "\(shown.debugDescription)")
    #expect(shown.contains("\u{1B}[38;2;118;118;118m✗ b.jpg"), "\(shown.debugDescription)")

    try tmux.send("Right")
    try tmux.send("Left")
    try tmux.send("Enter")
    try tmux.waitFor("a's detail names its rating, label and sidecar") {
      Tmux.plain($0).contains("★★★☆☆ · label Red · from a.jpg.xmp")
    }
    try tmux.send("Escape")
    try tmux.send("Right")
    try tmux.send("Enter")
    try tmux.waitFor("b's detail says rejected") {
      Tmux.plain($0).contains("rejected · from b.xmp")
    }
    try tmux.send("q")
    try tmux.send("q")
    try PathsInAndOutEndToEndTests.exited(tmux, in: root)
  }
}
