import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// When each frame was handed to the terminal, for `tessera bench folder`: one line a frame,
/// the `CLOCK_MONOTONIC` time in nanoseconds and the terminal's bytes up to this frame's end
/// (`TerminalSession.bytesWritten`: what tmux's `pipe-pane` counts). The bench dates a full screen by the moment the gallery had it composed, as
/// timg's time is its own process writing to /dev/null: the write to a terminal blocks while
/// the terminal takes the bytes in, and the tmux that shows the frame takes 40 ms or more for
/// 200 KB of colour cells, cold and warm alike.
///
/// Only made when `TESSERA_BENCH_FRAME_LOG` names a file the process may create (`0600`, no
/// symbolic link followed); a write that fails is dropped. O(1) a frame.
package final class FrameLog {
  package static let environmentKey = "TESSERA_BENCH_FRAME_LOG"
  private let descriptor: Int32

  init?(environment: [String: String]) {
    guard let path = environment[Self.environmentKey], !path.isEmpty else { return nil }
    descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return nil }
  }

  deinit { close(descriptor) }

  func frameComposed(endingAt bytes: Int) {
    let line = "\(Self.monotonicNanoseconds()) \(bytes)\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
  }

  package static func monotonicNanoseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return time.tv_sec * 1_000_000_000 + time.tv_nsec
  }

  /// The frames of a log's text, in order: when each was composed and where it ends.
  package static func frames(in log: String) -> [(time: Int, bytes: Int)] {
    log.split(separator: "\n").compactMap { line in
      let fields = line.split(separator: " ")
      guard fields.count == 2, let time = Int(fields[0]), let bytes = Int(fields[1]) else {
        return nil
      }
      return (time, bytes)
    }
  }
}
