import TesseraUtilities

/// A video's length as players print it: "0:42", "12:05", "1:02:03".
///
/// - Complexity: O(1).
enum DurationText {
  /// `seconds` rounded to the nearest second, but never below one: a clip shorter than half a
  /// second still plays, and "0:00" would read as an empty file. Hours are not padded;
  /// minutes are once there are hours.
  static func text(seconds: Double) -> String {
    // Clamped before converting: a duration is at most `VideoFacts.maxDuration` (100 days)
    // when it comes from a header, but this must not trap on anything.
    format(Int(clamping: seconds, to: 1...(10_000 * 3_600 - 1)))
  }

  /// A position in a playing video: the whole seconds passed, "0:00" at its start.
  static func clock(_ position: Duration) -> String {
    format(Int(min(max(0, position.components.seconds), 10_000 * 3_600 - 1)))
  }

  private static func format(_ total: Int) -> String {
    let (hours, minutes, rest) = (total / 3_600, total / 60 % 60, total % 60)
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
  }
}
