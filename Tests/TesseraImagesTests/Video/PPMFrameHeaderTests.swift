import Testing

@testable import TesseraImages

/// The PPM frames ffmpeg writes are outside input: every size is checked before a byte is
/// allocated for the pixels.
struct PPMFrameHeaderTests {
  let largest = PixelSize(width: 640, height: 480)

  private func parse(_ text: String) -> PPMFrameHeader.Parse {
    PPMFrameHeader.parse(Array(text.utf8)[...], largest: largest)
  }

  @Test func ffmpegsHeaderIsReadWithItsLength() {
    #expect(parse("P6\n320 240\n255\nRGB") == .header(.init(width: 320, height: 240, length: 15)))
    #expect(
      parse("P6 1\t1\r255 ") == .header(.init(width: 1, height: 1, length: 11)))
    #expect(PPMFrameHeader(width: 320, height: 240, length: 15).pixelBytes == 320 * 240 * 3)
  }

  @Test func everyPrefixOfAHeaderAsksForMore() {
    let header = "P6\n320 240\n255\n"
    for end in header.indices.dropLast() {
      let prefix = String(header[..<end])
      #expect(parse(prefix) == .needMore, "\(prefix.debugDescription)")
    }
  }

  @Test func whatIsNotFfmpegsFrameIsRefused() {
    for text in [
      "P5\n3 3\n255\n", "Q6\n3 3\n255\n", "P63 3\n255\n", "P6\n3 3\n65535\n", "P6\n3x 3\n255\n",
      "P6\n123456 3\n255\n", "P6\n" + String(repeating: " ", count: 80) + "3 3 255 ",
      "P6" + String(repeating: " ", count: 58) + "3 3 255 ",
    ] {
      guard case .invalid = parse(text) else {
        Issue.record("\(text.debugDescription) was accepted")
        continue
      }
    }
  }

  @Test func aFrameLargerThanAskedForOrEmptyIsRefused() {
    #expect(
      parse("P6\n641 480\n255\n")
        == .invalid(
          "a 641x480 frame, larger than the 640x480 asked for"))
    guard case .invalid = parse("P6\n640 99999\n255\n") else {
      Issue.record("a frame 99999 rows high was accepted")
      return
    }
    guard case .invalid = parse("P6\n0 10\n255\n") else {
      Issue.record("a frame 0 pixels wide was accepted")
      return
    }
  }
}
