import TesseraUtilities

/// What `ffprobe` says of a video before it plays: its length (for seeking and the position
/// shown) and its frame rate (so no frame is repeated to a faster rate). Its words are outside
/// input: each number is checked and clamped, and a probe that fails says nothing.
package struct VideoProbe: Equatable, Sendable {
  package var duration: Duration?
  package var framesPerSecond: Double?

  package init(duration: Duration? = nil, framesPerSecond: Double? = nil) {
    self.duration = duration
    self.framesPerSecond = framesPerSecond
  }

  /// No video Tessera plays is said to be longer (a broken header says anything).
  static let longest = 100 * 24 * 3600.0

  /// Asks `ffprobe` about the video at `path` (`byteLength` bytes from `byteOffset`); nothing when it is
  /// missing, slow (2 s) or says nothing of use. Blocking: call it off the main actor.
  package static func probe(
    path: String, byteOffset: Int64 = 0, byteLength: Int64? = nil
  ) -> VideoProbe {
    let arguments = [
      "-v", "error", "-select_streams", "v:0", "-show_entries",
      "stream=avg_frame_rate,r_frame_rate:format=duration", "-of", "default=noprint_wrappers=1",
      VideoStream.input(path: path, byteOffset: byteOffset, byteLength: byteLength),
    ]
    guard let text = ChildProcess.output(of: "ffprobe", arguments: arguments, timeout: 2) else {
      return VideoProbe()
    }
    return parse(text)
  }

  /// Reads `key=value` lines: `duration` in seconds, the rates as fractions (`30000/1001`).
  /// The average rate wins over the base rate, which a variable-rate phone video overstates.
  /// - Complexity: O(text).
  package static func parse(_ text: String) -> VideoProbe {
    var values: [Substring: Substring] = [:]
    for line in text.split(whereSeparator: \.isNewline) {
      guard let equals = line.firstIndex(of: "=") else { continue }
      values[line[..<equals]] = line[line.index(after: equals)...]
    }
    var probe = VideoProbe()
    if let seconds = values["duration"].flatMap({ Double($0) }), seconds.isFinite,
      seconds > 0, seconds <= longest
    {
      probe.duration = .milliseconds(Int64((seconds * 1000).rounded()))
    }
    probe.framesPerSecond =
      [values["avg_frame_rate"], values["r_frame_rate"]]
      .compactMap { $0.flatMap(rate) }.first
    return probe
  }

  /// `30000/1001` or `25`: a rate from 0.1 to 1000 frames a second; nil otherwise (`0/0`).
  private static func rate(_ text: Substring) -> Double? {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), let numerator = Double(parts[0]) else { return nil }
    let denominator = parts.count == 2 ? Double(parts[1]) ?? 0 : 1
    guard denominator > 0 else { return nil }
    let value = numerator / denominator
    return value.isFinite && (0.1...1000).contains(value) ? value : nil
  }
}
