import Foundation

@testable import TesseraTerminal

#if canImport(Glibc)
  import Glibc
#endif

/// A pseudo-terminal pair: the session gets the follower, the test reads the leader.
struct PseudoTerminal {
  let leader: Int32
  let follower: Int32

  /// libc's pty functions, which the Glibc module does not export, looked up by name.
  static func function<T>(_ name: String, as type: T.Type) -> T? {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
    return unsafeBitCast(symbol, to: type)
  }

  init() throws {
    typealias OpenFunction = @convention(c) (Int32) -> Int32
    // ptsname_r, not ptsname: ptsname returns a static buffer that suites running in
    // parallel would overwrite under each other.
    typealias NameFunction = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32
    guard let openLeader = Self.function("posix_openpt", as: OpenFunction.self),
      let grant = Self.function("grantpt", as: OpenFunction.self),
      let unlock = Self.function("unlockpt", as: OpenFunction.self),
      let followerName = Self.function("ptsname_r", as: NameFunction.self)
    else { throw TerminalError.systemCall("dlsym", errno: 0) }
    leader = openLeader(O_RDWR | O_NOCTTY)
    var name = [CChar](repeating: 0, count: 128)
    guard leader >= 0, grant(leader) == 0, unlock(leader) == 0,
      followerName(leader, &name, name.count) == 0
    else { throw TerminalError.systemCall("posix_openpt", errno: errno) }
    follower = open(name, O_RDWR | O_NOCTTY)
    guard follower >= 0 else { throw TerminalError.systemCall("open", errno: errno) }
    _ = fcntl(leader, F_SETFL, fcntl(leader, F_GETFL) | O_NONBLOCK)
  }

  func drain() -> String {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(leader, &buffer, buffer.count)
      if count <= 0 { break }
      bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Types `text` into the terminal, as a person (or the terminal's replies) would.
  func type(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { Glibc.write(leader, $0.baseAddress, $0.count) }
  }

  /// Sets the window size the kernel reports for the terminal.
  func setWindowSize(columns: UInt16, rows: UInt16, pixelWidth: UInt16 = 0, pixelHeight: UInt16 = 0)
  {
    var window = winsize(
      ws_row: rows, ws_col: columns, ws_xpixel: pixelWidth, ws_ypixel: pixelHeight)
    _ = ioctl(follower, UInt(TIOCSWINSZ), &window)
  }

  /// Closes the terminal's side: the follower's reader sees a hang-up.
  func closeLeader() { Glibc.close(leader) }

  func close() {
    Glibc.close(follower)
    Glibc.close(leader)
  }
}
