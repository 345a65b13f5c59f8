import Foundation

/// Videos and animations the tests make with Debian's ffmpeg from its test sources (a moving
/// test card, numbered frames), so no media file is shipped.
package enum TestMedia {
  package struct Failed: Error, CustomStringConvertible {
    package var description: String
  }

  /// Writes `path` from ffmpeg's `lavfi` source `source` (e.g.
  /// `testsrc=duration=2:size=320x240:rate=10`), with `arguments` before the output (codec,
  /// loop count). Throws when ffmpeg fails; waits for it, so nothing is left running.
  package static func make(
    _ path: String, from source: String, arguments: [String] = []
  ) throws {
    let ffmpeg = Process()
    ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
    ffmpeg.arguments =
      ["-loglevel", "error", "-nostdin", "-y", "-f", "lavfi", "-i", source] + arguments + [path]
    try ffmpeg.run()
    ffmpeg.waitUntilExit()
    guard ffmpeg.terminationStatus == 0 else {
      throw Failed(description: "ffmpeg exited with \(ffmpeg.terminationStatus) making \(path)")
    }
  }

  /// A short video of a moving test card: `seconds` long, 320×240 at 10 frames a second.
  package static func video(_ path: String, seconds: Int = 2) throws {
    try make(
      path, from: "testsrc=duration=\(seconds):size=320x240:rate=10",
      arguments: ["-pix_fmt", "yuv420p"])
  }

  /// An animated GIF, WebP, APNG (`.png`) or AVIF sequence (`.avif`, by libaom; it plays
  /// forever) — by `path`'s extension — of `frames` frames of a test card, `rate` a second,
  /// that plays `plays` times (0: forever).
  package static func animation(
    _ path: String, frames: Int, rate: Int = 10, plays: Int = 0, size: String = "64x48"
  ) throws {
    let seconds = Double(frames) / Double(rate)
    // GIF's loop count repeats after the first play (-1: no NETSCAPE block, one play);
    // WebP's counts plays.
    let loop = path.hasSuffix(".gif") ? (plays == 0 ? 0 : plays == 1 ? -1 : plays - 1) : plays
    let arguments =
      path.hasSuffix(".png")
      ? ["-plays", "\(plays)", "-f", "apng"]
      : path.hasSuffix(".avif")
        ? ["-c:v", "libaom-av1", "-cpu-used", "8", "-pix_fmt", "yuv420p", "-f", "avif"]
        : ["-loop", "\(loop)"]
    try make(
      path, from: "testsrc=duration=\(seconds):size=\(size):rate=\(rate)", arguments: arguments)
  }
}
