import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A shell script for a test to run, written so it can be run at once: through a descriptor
/// opened close-on-exec (a child that another test spawns meanwhile must not keep it open for
/// writing, or running the script fails with ETXTBSY), then made executable.
package enum ExecutableScript {
  package static func write(_ text: String, to url: URL) throws {
    let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
    defer { close(descriptor) }
    let bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes {
        Glibc.write(descriptor, $0.baseAddress, $0.count)
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { throw CocoaError(.fileWriteUnknown) }
      written += count
    }
    fchmod(descriptor, 0o755)
  }
}
