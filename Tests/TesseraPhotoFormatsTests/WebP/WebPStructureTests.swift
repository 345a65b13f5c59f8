import Testing

@testable import TesseraPhotoFormats

@Suite(.timeLimit(.minutes(1))) struct WebPStructureTests {
  /// A RIFF WebP: a VP8X chunk (animation flag as asked), an ANIM chunk, `frames` ANMF chunks
  /// of 16 bytes each; `riffSize` overrides the RIFF header's size.
  static func webp(animationFlag: Bool, frames: Int, riffSize: Int? = nil) -> [UInt8] {
    func u32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
    func chunk(_ name: String, _ payload: [UInt8]) -> [UInt8] {
      Array(name.utf8) + u32(payload.count) + payload + (payload.count & 1 == 1 ? [0] : [])
    }
    var body = Array("WEBP".utf8)
    body += chunk("VP8X", [animationFlag ? 0x02 : 0, 0, 0, 0, 7, 0, 0, 7, 0, 0])
    body += chunk("ANIM", [0, 0, 0, 0, 0, 0])
    for _ in 0..<frames { body += chunk("ANMF", Array(repeating: 0x11, count: 16)) }
    return Array("RIFF".utf8) + u32(riffSize ?? body.count) + body
  }

  @Test func framesDecideForAWholeFileAndTheFlagForAPrefix() throws {
    let flaggedEmpty = try #require(WebPStructure(Self.webp(animationFlag: true, frames: 0)))
    #expect(flaggedEmpty.flagsAnimation && flaggedEmpty.frames == 0 && !flaggedEmpty.bytesEnded)
    #expect(!flaggedEmpty.isAnimated(isWholeFile: true))
    #expect(!flaggedEmpty.isAnimated(isWholeFile: false), "the RIFF ended: no frame follows")
    let two = try #require(WebPStructure(Self.webp(animationFlag: true, frames: 2)))
    #expect(two.frames == 2 && two.isAnimated(isWholeFile: true))
    let one = try #require(WebPStructure(Self.webp(animationFlag: true, frames: 1)))
    #expect(!one.isAnimated(isWholeFile: true))
    // A prefix cut inside the second frame: the flag stands in for what is not read yet.
    let whole = Self.webp(animationFlag: true, frames: 2)
    let cut = try #require(WebPStructure(Array(whole.prefix(whole.count - 30))))
    #expect(cut.bytesEnded && cut.frames == 1)
    #expect(cut.isAnimated(isWholeFile: false))
    #expect(!cut.isAnimated(isWholeFile: true))
  }

  @Test func liesInSizesEndTheWalkWithoutTrapping() throws {
    // A RIFF size of 4 GiB and a chunk size past even that: the walk ends there, no frame
    // met, and the flag alone does not animate (the bytes did not end inside the RIFF).
    var lying = Self.webp(animationFlag: true, frames: 1, riffSize: 0xFFFF_FFFF)
    lying.replaceSubrange(34..<38, with: [0xFF, 0xFF, 0xFF, 0xFF])  // ANIM's size
    let walk = try #require(WebPStructure(lying))
    #expect(!walk.bytesEnded && walk.frames == 0)
    #expect(!walk.isAnimated(isWholeFile: false))
    for length in 0..<lying.count { _ = WebPStructure(Array(lying.prefix(length))) }
    #expect(WebPStructure(Array("RIFF....WEBX".utf8)) == nil)
  }
}
