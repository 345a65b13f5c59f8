import Foundation

/// The process's peak resident memory, as the kernel counts it: how a test shows that a
/// hostile input was refused before anything was allocated for what it claims. A peak never
/// falls, so a test compares the peak after the work with the peak before it. The peak is the
/// process's: a test running beside it that reached a higher peak first can hide a rise (a
/// missed failure, never a false one), so such a test fails when run alone or first.
package enum PeakMemory {
  /// Bytes (getrusage's maxrss, which Linux gives in KiB).
  package static var residentBytes: Int {
    var usage = rusage()
    guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
    return Int(usage.ru_maxrss) * 1024
  }

  /// How far the peak rose while `work` ran.
  package static func growth(during work: () throws -> Void) rethrows -> Int {
    let before = residentBytes
    try work()
    return max(0, residentBytes - before)
  }
}
