/// Counts as the screen and the command line write them: grouped by threes with commas
/// ("12,480 photos"). Not Foundation's locale-aware formatter: its first use builds an ICU
/// number formatter, ~15 ms of the main actor while the gallery's first screen is drawn.
package enum CountText {
  /// `count` with a comma every three digits. O(digits).
  package static func grouped(_ count: Int) -> String {
    let digits = String(count.magnitude)
    var text = count < 0 ? "-" : ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
      text.append(digit)
    }
    return text
  }
}
