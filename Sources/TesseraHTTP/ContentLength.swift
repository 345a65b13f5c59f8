/// `Content-Length` as a number: decimal digits only (no sign, no spaces inside), saturating
/// at `Int.max` instead of overflowing; nil for anything else.
package enum ContentLength {
  /// - Complexity: O(n) in the text's length.
  package static func parse(_ text: String) -> Int? {
    let isBlank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
    let trimmed = text.utf8.drop(while: isBlank)
    let digits = trimmed.prefix { !isBlank($0) }
    guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }),
      trimmed.dropFirst(digits.count).allSatisfy(isBlank)
    else { return nil }
    var value = 0
    for digit in digits {
      let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflowSum) = times.addingReportingOverflow(Int(digit - 0x30))
      if overflowTimes || overflowSum { return .max }
      value = sum
    }
    return value
  }
}
