import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraImages

/// ffprobe's words are outside input: each number is checked and clamped.
struct VideoProbeTests {
  @Test func aPhonesVideoSaysItsLengthAndAverageRate() {
    let probe = VideoProbe.parse(
      "r_frame_rate=60/1\navg_frame_rate=30000/1001\nduration=12.345000\n")
    #expect(probe.duration == .milliseconds(12_345))
    #expect(abs((probe.framesPerSecond ?? 0) - 29.97) < 0.01)
  }

  @Test func theBaseRateServesWhenTheAverageIsUnknown() {
    let probe = VideoProbe.parse("r_frame_rate=25/1\navg_frame_rate=0/0\nduration=N/A\n")
    #expect(probe.framesPerSecond == 25)
    #expect(probe.duration == nil)
  }

  @Test func absurdNumbersAreNotBelieved() {
    for text in [
      "avg_frame_rate=1/0\nduration=-3", "avg_frame_rate=99999/1\nduration=nan",
      "avg_frame_rate=x/y\nduration=1e300", "avg_frame_rate=\nduration=", "garbage",
    ] {
      #expect(VideoProbe.parse(text) == VideoProbe(), "\(text.debugDescription)")
    }
  }

  @Test func ffprobeReadsARealClip() throws {
    let folder = TemporaryFolder.Owned(prefix: "tessera-probe")
    let path = folder.url.appendingPathComponent("clip.mp4").path
    try TestMedia.video(path, seconds: 2)
    let probe = VideoProbe.probe(path: path)
    #expect(probe.framesPerSecond == 10)
    #expect(probe.duration == .seconds(2))
    #expect(
      VideoProbe.probe(path: folder.url.appendingPathComponent("none.mp4").path) == VideoProbe())
  }
}
