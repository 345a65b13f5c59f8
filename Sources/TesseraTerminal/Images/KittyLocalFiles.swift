import Foundation
import Synchronization

/// Kitty's temporary-file transmission (`t=t`): when the terminal runs on this machine, an
/// upload is a file the terminal reads and deletes, and the escape code carries only its
/// path — about a hundred bytes whatever the image, and no compression to spend CPU on.
///
/// Kitty deletes such a file only when its path is in a temporary folder and contains
/// `tty-graphics-protocol` (its rule, so a hostile program cannot make it delete anything
/// else); the files here are named `tessera-tty-graphics-protocol-<pid>-<n>` in `/dev/shm`
/// (memory, never a disk) or the temporary folder. They are created with `O_EXCL` and mode
/// 0600, never following a link. Whether the terminal can read them is asked first, as
/// kitty's own `icat` does (see ``CapabilityProbe``).
enum KittyLocalFiles {
  /// The folder uploads go to: `/dev/shm` when it is there and writable, else the
  /// temporary folder.
  static let folder: String = {
    if access("/dev/shm", W_OK | X_OK) == 0 { return "/dev/shm" }
    let temporary = NSTemporaryDirectory()
    return temporary.hasSuffix("/") ? String(temporary.dropLast()) : temporary
  }()

  /// The name kitty requires for it to delete the file after reading it.
  static let marker = "tty-graphics-protocol"

  private static let counter = Atomic<Int>(0)

  /// A new path for an upload (or the probe).
  static func newPath(_ suffix: String? = nil) -> String {
    let pid = getpid()
    return
      "\(folder)/tessera-\(marker)-\(pid)-\(suffix ?? String(counter.add(1, ordering: .relaxed).newValue))"
  }

  /// Writes `bytes` to a new file at `path` (exclusive, 0600, no links followed); false when
  /// it could not (the caller then sends the pixels in the escape code instead).
  static func write(_ bytes: [UInt8], to path: String) -> Bool {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var offset = 0
    let complete = bytes.withUnsafeBytes { buffer -> Bool in
      guard let base = buffer.baseAddress else { return true }
      while offset < buffer.count {
        let written = Foundation.write(descriptor, base + offset, buffer.count - offset)
        if written > 0 {
          offset += written
        } else if written < 0, errno == EINTR {
          continue
        } else {
          return false
        }
      }
      return true
    }
    if !complete { unlink(path) }
    return complete
  }
}
