import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A listening TCP socket on 127.0.0.1 with a port the kernel picks: what the tests' hand-made
/// servers (answers written byte by byte, or none at all) start from.
package enum LoopbackSocket {
  /// A socket bound to 127.0.0.1 and listening with `backlog`, and its port; nil when the
  /// system refuses (the socket is then closed).
  package static func listen(backlog: Int32 = 16) -> (descriptor: Int32, port: Int)? {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(descriptor, pointer, length) == 0 && Glibc.listen(descriptor, backlog) == 0
          && getsockname(descriptor, pointer, &length) == 0
      }
    }
    guard bound else {
      close(descriptor)
      return nil
    }
    return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
  }

  /// A socket bound to 127.0.0.1:`port` that never listens: while it is open, connections to
  /// the port are refused, and no other server (another test's, started meanwhile) can take
  /// it. nil when the port is taken; close the descriptor when done.
  package static func reserve(port: Int) -> Int32? {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0, (1...65_535).contains(port) else {
      if descriptor >= 0 { close(descriptor) }
      return nil
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    // Connections the old server closed may linger in TIME_WAIT: they do not listen.
    var yes: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
    guard bound else {
      close(descriptor)
      return nil
    }
    return descriptor
  }
}
