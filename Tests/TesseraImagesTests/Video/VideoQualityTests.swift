import Testing

@testable import TesseraImages

/// A video plays at the box's size and its own rate, within stated bounds, and smaller and
/// slower when the link cannot carry its frames.
struct VideoQualityTests {
  let box = PixelSize(width: 1200, height: 700)

  @Test func aFastLinkGetsTheBoxAtTheVideosRate() {
    let local = VideoQuality.choose(box: box, sourceRate: 29.97, linkBytesPerSecond: nil)
    #expect(local.size == box)
    #expect(local.framesPerSecond == 30)
    let fast = VideoQuality.choose(box: box, sourceRate: 24, linkBytesPerSecond: 100e6)
    #expect(fast.size == box && fast.framesPerSecond == 24)
  }

  @Test func boundsHoldWhateverTheVideoAndBoxSay() {
    let huge = VideoQuality.choose(
      box: PixelSize(width: 8000, height: 6000), sourceRate: 240, linkBytesPerSecond: nil)
    #expect(huge.size == VideoQuality.largest)
    #expect(huge.framesPerSecond == VideoQuality.fastest)
    let unknown = VideoQuality.choose(box: box, sourceRate: .nan, linkBytesPerSecond: -1)
    #expect(unknown.framesPerSecond == 25)
    let slow = VideoQuality.choose(box: box, sourceRate: 0.2, linkBytesPerSecond: nil)
    #expect(slow.framesPerSecond == 1)
  }

  @Test func aSlowLinkSlowsThenShrinksThenSlowsAgain() {
    // 20 Mbit/s: 2.5 MB/s, 2 MB/s for frames: 8 a second, smaller.
    let middling = VideoQuality.choose(box: box, sourceRate: 30, linkBytesPerSecond: 2_500_000)
    #expect(middling.framesPerSecond == 8)
    #expect(middling.size.width < box.width && middling.size.height < box.height)
    #expect(middling.size.width > box.width / 2)
    #expect(
      Double(middling.size.width * middling.size.height * middling.framesPerSecond)
        <= 2_000_000)
    // 2 Mbit/s: a quarter of the sides, 3 a second.
    let ssh = VideoQuality.choose(box: box, sourceRate: 30, linkBytesPerSecond: 250_000)
    #expect(ssh.size == PixelSize(width: 300, height: 175))
    #expect(ssh.framesPerSecond == 3)
    // Slower still: a quarter of the sides, then fewer frames.
    let crawl = VideoQuality.choose(box: box, sourceRate: 30, linkBytesPerSecond: 20_000)
    #expect(crawl.size == PixelSize(width: 300, height: 175))
    #expect(crawl.framesPerSecond == 1)
    // A small box on a middling link keeps its rate.
    let small = VideoQuality.choose(
      box: PixelSize(width: 160, height: 90), sourceRate: 30, linkBytesPerSecond: 2_500_000)
    #expect(small.framesPerSecond == 30 && small.size == PixelSize(width: 160, height: 90))
  }
}
