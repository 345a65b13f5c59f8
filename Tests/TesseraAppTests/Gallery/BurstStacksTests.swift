import Foundation
import TesseraImages
import TesseraPhotoFormats
import TesseraTestSupport
import Testing

@testable import TesseraGallery

/// Bursts as stacks: the grouping by time and look, then in tmux on real JPEGs whose EXIF
/// dates make a burst.
@Suite(.timeLimit(.minutes(2)))
struct BurstStacksTests {
  @Test func runsAreNeighboursTakenWithinTwoSecondsAndAPhotoWithoutADateEndsOne() {
    let taken: [Int64?] = [100, 101, 103, 200, 201, nil, 202, 300]
    // 100, 101, 103 (each ≤ 2 s after the one before); 200, 201; 202 alone after nil; 300 alone.
    #expect(BurstStacks.candidateRuns(taken: taken) == [0..<3, 3..<5])
    #expect(BurstStacks.candidateRuns(taken: []) == [])
    #expect(BurstStacks.candidateRuns(taken: [5, 5]) == [0..<2])
    // Newest first (a reversed sort) is a run too.
    #expect(BurstStacks.candidateRuns(taken: [105, 104, 103]) == [0..<3])
  }

  @Test func aRunIsCutWhereAPhotoLooksUnlikeTheOneBefore() {
    let alike = PerceptualHash(bits: 0b1111)
    let near = PerceptualHash(bits: 0b1111 | 1 << 40)  // one bit off
    let other = PerceptualHash(bits: ~0)
    // 10..<16: alike, near, other, other, nil, alike.
    let stacks = BurstStacks.stacks(
      in: 10..<16, hashes: [alike, near, other, other, nil, alike])
    #expect(stacks == [10..<12, 12..<14])
    #expect(BurstStacks.stacks(in: 0..<2, hashes: [alike, other]) == [])
  }

  /// In `root`: a burst of three JPEGs a second apart (a1–a3), a different picture a second
  /// after (b, the gradient mirrored) and a like one five minutes on (c), EXIF-dated.
  static func writeBurst(in root: URL) throws {
    func photo(_ name: String, taken: String, mirrored: Bool = false, blue: UInt8) throws {
      let gradient = TestImages.gradientPixels(width: 160, height: 120, blue: blue)
      let pixels = mirrored ? TestImages.mirrored(gradient, width: 160, height: 120) : gradient
      let jpeg = Array(try TestImages.encode(pixels, width: 160, height: 120, as: ".jpg"))
      try LocalFolderEndToEndTests.write(
        ExifWriter(model: "X-T5", orientation: 1, dateTaken: taken).splicing(into: jpeg),
        to: name, in: root, modified: "2024-06-01T12:00:00Z")
    }
    try photo("a1.jpg", taken: "2024:06:01 10:00:00", blue: 100)
    try photo("a2.jpg", taken: "2024:06:01 10:00:01", blue: 110)
    try photo("a3.jpg", taken: "2024:06:01 10:00:02", blue: 120)
    try photo("b.jpg", taken: "2024:06:01 10:00:03", mirrored: true, blue: 100)
    try photo("c.jpg", taken: "2024:06:01 10:05:00", blue: 100)
  }

  /// A burst of three frames a second apart, a different picture a second later, and a like
  /// one five minutes on: one stack of three, opened and closed with `S`; `--no-stacks`
  /// shows all five.
  @Test func aBurstIsOneTileWithItsCountAndSOpensIt() throws {
    let root = TemporaryFolder.make(prefix: "tessera-stacks")
    defer { try? FileManager.default.removeItem(at: root) }
    try Self.writeBurst(in: root)

    let tmux = try ActingOnPhotosEndToEndTests.gallery("--sort taken", in: root)
    // Newest first: c, b, then the burst under its newest frame.
    let stacked = try tmux.waitFor("the burst as one tile") {
      PathsInAndOutEndToEndTests.ready(3)($0) && Tmux.plain($0).contains("▣3 a3.jpg")
    }
    let plain = Tmux.plain(stacked)
    #expect(plain.contains("b.jpg") && plain.contains("c.jpg"), "\(plain)")
    #expect(!plain.contains("a2.jpg") && !plain.contains("a1.jpg"), "\(plain)")
    try tmux.send("S")
    try tmux.waitFor("S on a photo in no stack says so") {
      Tmux.plain($0).contains("not in a stack")
    }
    try tmux.send("Right")
    try tmux.send("Right")
    try tmux.send("S")
    let opened = try tmux.waitFor("the burst opened") {
      PathsInAndOutEndToEndTests.ready(5)($0) && Tmux.plain($0).contains("▣ a1.jpg")
    }
    #expect(Tmux.plain(opened).contains("▣ a3.jpg"), "\(Tmux.plain(opened))")
    #expect(!Tmux.plain(opened).contains("▣ b.jpg"), "\(Tmux.plain(opened))")
    // Closed again from a frame inside it: the stack's tile is selected.
    try tmux.send("Right")
    try tmux.send("S")
    try tmux.waitFor("the burst closed") {
      PathsInAndOutEndToEndTests.ready(3)($0) && Tmux.plain($0).contains("▣3 a3.jpg")
    }
    try tmux.send("q")
    try PathsInAndOutEndToEndTests.exited(tmux, in: root)

    let every = try ActingOnPhotosEndToEndTests.gallery("--sort taken --no-stacks", in: root)
    let all = try every.waitFor("every frame") { PathsInAndOutEndToEndTests.ready(5)($0) }
    #expect(!Tmux.plain(all).contains("▣"), "\(Tmux.plain(all))")
    try every.send("q")
    try PathsInAndOutEndToEndTests.exited(every, in: root)
  }
}
