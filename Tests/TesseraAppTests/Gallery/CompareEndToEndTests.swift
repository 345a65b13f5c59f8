import Foundation
import TesseraTestSupport
import Testing

/// The compare view as a person uses it, in tmux: `c` puts two photos side by side, Tab
/// chooses the one a culling key acts on, and only its sidecar is written.
@Suite(.timeLimit(.minutes(2))) struct CompareEndToEndTests {
  @Test func cComparesTabChoosesAndOnlyTheChosenPhotoIsRated() throws {
    let root = TemporaryFolder.make(prefix: "tessera-compare")
    defer { try? FileManager.default.removeItem(at: root) }
    try CullingEndToEndTests.photos(["a.jpg", "b.jpg", "c.jpg"], in: root)
    let tmux = try ActingOnPhotosEndToEndTests.gallery("--sort name", in: root)
    try tmux.waitFor("the photos") { PathsInAndOutEndToEndTests.ready(3)($0) }

    // a.jpg is selected: it and the next, a.jpg's pane chosen.
    try tmux.send("c")
    let compared = try tmux.waitFor("a and b side by side") {
      Tmux.plain($0).contains("Tab next pane") && Tmux.plain($0).contains("▶a.jpg")
        && Tmux.plain($0).contains("b.jpg")
    }
    #expect(!Tmux.plain(compared).contains("c.jpg"), "\(Tmux.plain(compared))")
    // The two captions share a row: side by side, not one above the other.
    let rows = Tmux.plain(compared).split(separator: "\n")
    #expect(
      rows.contains { $0.contains("▶a.jpg") && $0.contains("b.jpg") },
      "\(Tmux.plain(compared))")

    try tmux.send("Tab")
    try tmux.waitFor("b's pane chosen") { Tmux.plain($0).contains("▶b.jpg") }
    try tmux.send("3")
    try tmux.waitFor("b rated in its pane") {
      Tmux.plain($0).contains("★★★ on 1 photo") && Tmux.plain($0).contains("▶★★★ b.jpg")
    }
    #expect(CullingEndToEndTests.rating(root.appendingPathComponent("b.jpg.xmp")) == "3")
    #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("a.jpg.xmp").path))

    // z: the chosen photo at 100 % (160 pixels wide, more than its pane's), in both panes.
    try tmux.send("z")
    try tmux.waitFor("zoomed to 100 %") { Tmux.plain($0).contains("h j k l pan all") }
    try tmux.send("z")
    try tmux.waitFor("fitted again") {
      Tmux.plain($0).contains("Tab next pane") && !Tmux.plain($0).contains("pan all")
    }
    // Space: the chosen pane shows the next photo no pane shows; a.jpg stays.
    try tmux.send("Space")
    try tmux.waitFor("c in b's pane") {
      Tmux.plain($0).contains("▶c.jpg") && Tmux.plain($0).contains("a.jpg")
        && !Tmux.plain($0).contains("b.jpg")
    }
    try tmux.send("Escape")
    try tmux.waitFor("the grid, c selected") {
      !Tmux.plain($0).contains("Tab next pane") && Tmux.plain($0).contains("★★★ b.jpg")
    }

    // Marked photos are compared, whatever is selected: a and c, not b.
    try tmux.send("m")
    try tmux.send("g")
    try tmux.send("m")
    try tmux.waitFor("two marked") { Tmux.plain($0).contains("2 marked") }
    try tmux.send("c")
    let marked = try tmux.waitFor("a and c side by side") {
      Tmux.plain($0).contains("Tab next pane") && Tmux.plain($0).contains("a.jpg")
        && Tmux.plain($0).contains("c.jpg")
    }
    #expect(!Tmux.plain(marked).contains("b.jpg"), "\(Tmux.plain(marked))")
    try tmux.send("Escape")
    try tmux.waitFor("the grid") { !Tmux.plain($0).contains("Tab next pane") }
    try tmux.send("q")
    try PathsInAndOutEndToEndTests.exited(tmux, in: root)
  }
}
