import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Processes as /proc lists them, for tests that check what a gallery leaves running.
enum ProcessTree {
  /// The `ffmpeg` processes below `pid` (a tmux pane's shell, a terminal's gallery): the
  /// gallery's decoders, read from /proc.
  static func decoders(below pid: pid_t) -> [pid_t] {
    var parents: [pid_t: (parent: pid_t, name: String)] = [:]
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
      guard let process = pid_t(entry),
        let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
        let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
      else { continue }
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      guard fields.count > 1, let parent = pid_t(fields[1]) else { continue }
      parents[process] = (parent, String(stat[stat.index(after: open)..<close]))
    }
    return parents.filter { process, facts in
      guard facts.name == "ffmpeg" else { return false }
      var current = facts.parent
      for _ in 0..<16 {
        if current == pid { return true }
        guard let next = parents[current]?.parent, next > 1 else { return false }
        current = next
      }
      return false
    }.map(\.key)
  }
}
