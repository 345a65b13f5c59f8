import Foundation

/// This process's resident memory, from /proc/self/status (Linux).
package enum ProcessMemory {
  package static func current() -> Int { field("VmRSS:") }
  package static func peak() -> Int { field("VmHWM:") }

  /// Resets VmHWM to the current RSS (writing 5 to clear_refs); false where not allowed.
  package static func resetPeak() -> Bool {
    guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
    defer { try? handle.close() }
    return (try? handle.write(contentsOf: Data("5".utf8))) != nil
  }

  private static func field(_ name: String) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return 0
    }
    for line in status.split(separator: "\n") where line.hasPrefix(name) {
      let kilobytes = line.dropFirst(name.count).split(whereSeparator: \.isWhitespace).first
        .flatMap { Int($0) }
      return (kilobytes ?? 0) * 1024
    }
    return 0
  }
}
