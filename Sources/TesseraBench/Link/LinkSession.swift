import Foundation
import TesseraUtilities

#if canImport(Glibc)
  import Glibc
#endif

/// A program in a pseudo-terminal at one end of a slow link, a ``ModelTerminal`` at the other:
/// what the program writes goes down one ``SlowLink``, and the keys typed and the terminal's
/// answers come back up another, as over SSH. The session is pumped by its owner
/// (``pump(until:timeout:)``), one thread, so every time it reports is its own clock's.
///
/// The program's writes are taken only while the link's queue holds less than
/// ``bufferLimit`` (sshd's channel window and the socket's buffer): past it the program's
/// `write` blocks, as it would.
final class LinkSession {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  let pid: pid_t
  private let leader: Int32
  private var down: SlowLink
  private var up: SlowLink
  private(set) var terminal: ModelTerminal
  let bufferLimit: Int
  private let started = DispatchTime.now().uptimeNanoseconds
  /// When the terminal's count of pictures changed, and to what.
  private(set) var pictureTimeline: [(time: Double, pictures: Int)] = []
  /// When the last byte reached the terminal.
  private(set) var lastArrival = 0.0
  /// When the terminal took bytes from the link, and how many: at the link's pace while the
  /// model keeps up, later and in larger batches when it does not.
  private(set) var deliveries: [(time: Double, bytes: Int)] = []
  /// When the program last wrote, and when the terminal last completed a picture.
  private(set) var lastProgramOutput = 0.0
  private(set) var lastPictureCompleted = 0.0
  private(set) var exited = false
  /// The program was waited for: its pid may belong to another process now.
  private var reaped = false

  /// Seconds since the session started.
  var now: Double { Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9 }
  /// Bytes the program wrote, and bytes that reached the terminal.
  var bytesWritten: Int { down.sent }
  var bytesArrived: Int { down.delivered }
  /// Whether nothing is on its way in either direction.
  var linkIsIdle: Bool { down.isIdle && up.isIdle }

  init(
    arguments: [String], environment: [String: String], terminal: ModelTerminal,
    bytesPerSecond: Double, delay: Double, bufferLimit: Int, errorLog: String
  ) throws {
    self.terminal = terminal
    down = SlowLink(bytesPerSecond: bytesPerSecond, delay: delay)
    up = SlowLink(bytesPerSecond: bytesPerSecond, delay: delay)
    self.bufferLimit = bufferLimit
    let (leader, followerName) = try Self.openPseudoTerminal()
    self.leader = leader
    var window = winsize(
      ws_row: UInt16(terminal.rows), ws_col: UInt16(terminal.columns),
      ws_xpixel: UInt16(clamping: terminal.columns * terminal.cellWidth),
      ws_ypixel: UInt16(clamping: terminal.rows * terminal.cellHeight))
    _ = ioctl(leader, UInt(TIOCSWINSZ), &window)
    do {
      pid = try Self.spawn(
        arguments, environment: environment, terminal: followerName, errorLog: errorLog)
    } catch {
      close(leader)
      throw error
    }
    _ = fcntl(leader, F_SETFL, fcntl(leader, F_GETFL) | O_NONBLOCK)
  }

  deinit {
    stop()
    close(leader)
  }

  /// Types `text` at the terminal now: it reaches the program a link's delay later.
  func type(_ text: String) { up.send(Array(text.utf8), at: now) }

  /// The fastest the terminal took `count` bytes, in bytes a second: the shortest time
  /// between two deliveries that, with the bytes between them, make at least `count`. The
  /// link's rate when the model keeps up; the model's own when a loaded machine slows it (the
  /// rate a program measuring the link then rightly finds). Nil when fewer arrived.
  /// O(deliveries).
  func fastestReading(of count: Int) -> Double? {
    var best: Double?
    var first = 0
    // The bytes of the deliveries after `first`, through `last`.
    var inner = 0
    for last in deliveries.indices.dropFirst() {
      inner += deliveries[last].bytes
      while first + 1 < last, inner - deliveries[first + 1].bytes >= count {
        inner -= deliveries[first + 1].bytes
        first += 1
      }
      let span = deliveries[last].time - deliveries[first].time
      guard inner >= count, span > 0 else { continue }
      best = max(best ?? 0, Double(inner) / span)
    }
    return best
  }

  /// Moves bytes both ways until `done` holds (true) or `timeout` seconds pass (false).
  @discardableResult
  func pump(until done: (LinkSession) -> Bool, timeout: Double) -> Bool {
    let deadline = now + timeout
    while true {
      if done(self) { return true }
      let current = now
      if current >= deadline { return false }
      let next = [down.nextArrival, up.nextArrival, deadline].compactMap { $0 }.min() ?? deadline
      let wait = max(0, min(next - current, 0.01))
      let milliseconds = Int32((wait * 1000).rounded(.up))
      if !exited && down.backlog(at: current) < bufferLimit {
        var descriptor = pollfd(fd: leader, events: Int16(POLLIN), revents: 0)
        // After the program exits the pty still holds what it wrote last: reads return it,
        // then EIO, which is the end.
        if poll(&descriptor, 1, milliseconds) > 0 { readProgram() }
      } else {
        _ = poll(nil, 0, milliseconds)
      }
      deliver()
      recount(at: now)
    }
  }

  /// ``pump(until:timeout:)`` on a thread of its own (``BlockingWork``) while the caller, a
  /// test, awaits it: never on Swift's cooperative pool, which has one thread per core. Two
  /// tests pumping for a minute there held both of a 2-core machine's threads, and every
  /// time-limited test queued behind them ran out of time before it started; pumping in slices
  /// with yields between them stalled the link model instead (a yielded pump waits for a
  /// thread, and the doctor's test transfer read a rate the link never had).
  @discardableResult
  func pumpOffThePool(
    until done: @escaping (LinkSession) -> Bool, timeout: Double
  ) async -> Bool {
    // Sound: the session is used by one thread at a time, the caller waiting meanwhile.
    let work = Unchecked { self.pump(until: done, timeout: timeout) }
    return await BlockingWork.run { work.value() }
  }

  /// A value handed to the one thread that uses it while its owner waits.
  private struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
  }

  /// Stops the program (SIGTERM, then SIGKILL after a second) and reaps it.
  func stop() {
    guard pid > 0, !reaped else { return }
    defer { reaped = true }
    var status: Int32 = 0
    if waitpid(pid, &status, WNOHANG) == pid { return }
    kill(pid, SIGTERM)
    for _ in 0..<100 {
      if waitpid(pid, &status, WNOHANG) == pid { return }
      usleep(10_000)
    }
    kill(pid, SIGKILL)
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
  }

  private func readProgram() {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let count = read(leader, &buffer, buffer.count)
    if count > 0 {
      lastProgramOutput = now
      down.send(Array(buffer[..<count]), at: lastProgramOutput)
    } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
      exited = true
    }
  }

  private func deliver() {
    let current = now
    let arrived = down.arrived(by: current)
    if !arrived.isEmpty {
      lastArrival = current
      deliveries.append((current, arrived.count))
      let completed = terminal.picturesCompleted
      let answers = terminal.read(arrived)
      if !answers.isEmpty { up.send(answers, at: current) }
      if terminal.picturesCompleted != completed { lastPictureCompleted = current }
      recount(at: current)
    }
    let input = up.arrived(by: current)
    var offset = 0
    while offset < input.count, !exited {
      let written = input[offset...].withUnsafeBytes { write(leader, $0.baseAddress, $0.count) }
      if written > 0 {
        offset += written
      } else if errno != EAGAIN && errno != EINTR {
        break
      }
    }
  }

  /// Counting the pictures on screen takes a pass over every cell (sixel): it is done at most
  /// every ``countInterval`` (so the bench's own work never slows the link it measures: the
  /// timeline's times are up to that late), and whenever the owner asks (``pictures``).
  static let countInterval = 0.02
  private var lastCount = -1.0
  private var counted = 0

  /// The pictures on screen now.
  var pictures: Int {
    recount(at: now, force: true)
    return counted
  }

  private func recount(at time: Double, force: Bool = false) {
    guard force || time - lastCount >= Self.countInterval else { return }
    lastCount = time
    let count = terminal.pictures
    if count != counted || pictureTimeline.isEmpty {
      counted = count
      pictureTimeline.append((time, count))
    }
  }

  // MARK: Process

  private static func openPseudoTerminal() throws -> (Int32, String) {
    typealias OpenFunction = @convention(c) (Int32) -> Int32
    typealias NameFunction = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32
    func function<T>(_ name: String, as type: T.Type) -> T? {
      dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: type) }
    }
    // The Glibc module does not export the pty functions.
    guard let openLeader = function("posix_openpt", as: OpenFunction.self),
      let grant = function("grantpt", as: OpenFunction.self),
      let unlock = function("unlockpt", as: OpenFunction.self),
      let followerName = function("ptsname_r", as: NameFunction.self)
    else { throw Failure(description: "no pseudo-terminal functions in libc") }
    let leader = openLeader(O_RDWR | O_NOCTTY | O_CLOEXEC)
    var name = [CChar](repeating: 0, count: 128)
    guard leader >= 0, grant(leader) == 0, unlock(leader) == 0,
      followerName(leader, &name, name.count) == 0
    else {
      if leader >= 0 { close(leader) }
      throw Failure(
        description: "cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
    }
    return (
      leader, String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    )
  }

  /// Starts `arguments` as a session leader whose controlling terminal is `terminal` (opened
  /// without O_NOCTTY by the new session's leader, it becomes that).
  private static func spawn(
    _ arguments: [String], environment: [String: String], terminal: String, errorLog: String
  ) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, terminal, O_RDWR, 0)
    posix_spawn_file_actions_adddup2(&actions, 0, 1)
    posix_spawn_file_actions_addopen(&actions, 2, errorLog, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    var envp: [UnsafeMutablePointer<CChar>?] =
      environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let spawned = BenchSpawn.withChildAttributes(newSession: true) {
      posix_spawnp(&pid, arguments[0], &actions, &$0, &argv, &envp)
    }
    guard spawned == 0 else {
      throw Failure(
        description: "cannot run \(arguments[0]): \(String(cString: strerror(spawned)))")
    }
    return pid
  }
}
