import Foundation
import Testing

@testable import TesseraTerminal

#if canImport(Glibc)
  import Glibc
#endif

@Suite(.serialized) struct TerminalSessionTests {
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
      typealias NameFunction = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
      guard let openLeader = Self.function("posix_openpt", as: OpenFunction.self),
        let grant = Self.function("grantpt", as: OpenFunction.self),
        let unlock = Self.function("unlockpt", as: OpenFunction.self),
        let followerName = Self.function("ptsname", as: NameFunction.self)
      else { throw TerminalError.systemCall("dlsym", errno: 0) }
      leader = openLeader(O_RDWR | O_NOCTTY)
      guard leader >= 0, grant(leader) == 0, unlock(leader) == 0, let name = followerName(leader)
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

    func close() {
      Glibc.close(follower)
      Glibc.close(leader)
    }
  }

  static func localFlags(_ fd: Int32) -> tcflag_t {
    var settings = termios()
    tcgetattr(fd, &settings)
    return settings.c_lflag
  }

  @Test func entersRawModeAndTheModesThenRestoresBoth() throws {
    let pty = try PseudoTerminal()
    defer { pty.close() }
    let before = Self.localFlags(pty.follower)
    #expect(before & tcflag_t(ICANON) != 0)
    let session = try TerminalSession(input: pty.follower, output: pty.follower)
    #expect(Self.localFlags(pty.follower) & tcflag_t(ICANON | ECHO | ISIG) == 0)
    let entered = pty.drain()
    #expect(entered.contains("\u{1B}[?1049h"))
    #expect(entered.contains("\u{1B}[?1006h"))
    session.restore()
    session.restore()
    #expect(Self.localFlags(pty.follower) == before)
    let left = pty.drain()
    #expect(left.hasSuffix("\u{1B}[?25h\u{1B}[?1049l"))
    #expect(left.components(separatedBy: "\u{1B}[?1049l").count == 2)
  }

  @Test func readsKeysAndResolvesALoneEscapeAfterTheTimeout() throws {
    let pty = try PseudoTerminal()
    defer { pty.close() }
    let session = try TerminalSession(modes: [], input: pty.follower, output: pty.follower)
    defer { session.restore() }
    let bytes: [UInt8] = Array("q\u{1B}[B".utf8) + [0x1B]
    _ = bytes.withUnsafeBytes { write(pty.leader, $0.baseAddress, $0.count) }
    var events: [InputEvent] = []
    for _ in 0..<20 where events.count < 3 {
      events += session.readEvents(timeout: .milliseconds(100), escapeTimeout: .milliseconds(5))
    }
    #expect(events == [.key(.character("q")), .key(.down), .key(.escape)])
  }

  @Test func refusesSomethingThatIsNotATerminal() throws {
    var fds: [Int32] = [-1, -1]
    #expect(pipe(&fds) == 0)
    defer {
      close(fds[0])
      close(fds[1])
    }
    #expect(throws: TerminalError.notATerminal(descriptor: fds[0])) {
      try TerminalSession(input: fds[0], output: fds[1])
    }
  }

  @Test func theProbeAsksForEverythingAndEndsOnDA1() throws {
    let pty = try PseudoTerminal()
    defer { pty.close() }
    let session = try TerminalSession(modes: [], input: pty.follower, output: pty.follower)
    defer { session.restore() }
    let reply = Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?2026;2$y\u{1B}[?62;4c".utf8)
    _ = reply.withUnsafeBytes { write(pty.leader, $0.baseAddress, $0.count) }
    let capabilities = session.detectCapabilities(
      budget: .seconds(5), environment: ["TERM": "xterm-256color"])
    #expect(capabilities.graphics == .kitty)
    #expect(capabilities.synchronizedOutput)
    #expect(pty.drain().contains("\u{1B}[c"))
  }
}
