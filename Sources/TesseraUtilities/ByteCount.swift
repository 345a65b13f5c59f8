import Foundation

/// Byte counts as people read them. O(1).
package enum ByteCount {
  /// A limit, exactly: "8 MiB", "256 KiB", "100 bytes".
  package static func text(_ bytes: Int) -> String {
    if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
    if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
    return bytes == 1 ? "1 byte" : "\(bytes) bytes"
  }

  /// An amount, rounded to one decimal in powers of 1000 as file managers show sizes:
  /// "812 B", "2.1 MB".
  package static func rounded(_ bytes: Int) -> String {
    let units = ["B", "KB", "MB", "GB"]
    var value = Double(bytes)
    var unit = 0
    while value >= 1000, unit < units.count - 1 {
      value /= 1000
      unit += 1
    }
    return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
  }
}
