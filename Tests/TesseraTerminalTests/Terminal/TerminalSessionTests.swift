import Foundation
import Testing

@testable import TesseraTerminal

#if canImport(Glibc)
  import Glibc
#endif

@Suite(.serialized, .timeLimit(.minutes(1))) struct TerminalSessionTests {
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

  /// What `pipe-pane` counts: every byte the terminal got, the modes' sequences included.
  @Test func countsEveryByteWritten() throws {
    let pty = try PseudoTerminal()
    defer { pty.close() }
    let session = try TerminalSession(input: pty.follower, output: pty.follower)
    defer { session.restore() }
    session.write(Array("frame one".utf8))
    session.write(Array(repeating: 0x41, count: 3_000))
    let received = Array(pty.drain().utf8)
    #expect(session.bytesWritten == received.count)
    #expect(received.count == TerminalModes.gallery.enterSequence.count + 9 + 3_000)
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
    #expect(capabilities.followsSession)
    #expect(pty.drain().contains("\u{1B}[c"))
  }

  /// A key or a focus change before the answers (tmux with focus-events on sends a focus-in
  /// first) neither hides the answers nor is lost.
  @Test func eventsBeforeTheAnswersAreKeptAndTheAnswersStillRead() async throws {
    let pty = try PseudoTerminal()
    defer { pty.close() }
    let session = try TerminalSession(modes: [], input: pty.follower, output: pty.follower)
    defer { session.restore() }
    let early = Array("\u{1B}[Iq".utf8)
    _ = early.withUnsafeBytes { write(pty.leader, $0.baseAddress, $0.count) }
    let leader = pty.leader
    let answers = Task.detached {
      // The answers a round trip later, so the probe reads the early events first (the fix
      // does not need the wait; without it the bug would hide, both read at once).
      usleep(100_000)
      let reply = Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;4c".utf8)
      _ = reply.withUnsafeBytes { write(leader, $0.baseAddress, $0.count) }
    }
    let capabilities = session.detectCapabilities(
      budget: .seconds(5), environment: ["TERM": "xterm-256color"])
    await answers.value
    #expect(capabilities.graphics == .kitty, "the answers after the events were read")
    #expect(session.takeQueued() == [.focus(true), .key(.character("q"))])
  }

  /// kitty's images are freed when a session that found kitty ends, unless the program means
  /// them to stay (the doctor's test images).
  @Test(arguments: [false, true])
  func kittyImagesAreFreedOnExitUnlessKept(kept: Bool) throws {
    let pty = try PseudoTerminal()
    defer { pty.close() }
    let session = try TerminalSession(modes: [], input: pty.follower, output: pty.follower)
    defer { session.restore() }  // (a second restore does nothing)
    let reply = Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;4c".utf8)
    _ = reply.withUnsafeBytes { write(pty.leader, $0.baseAddress, $0.count) }
    let capabilities = session.detectCapabilities(
      budget: .seconds(5), environment: ["TERM": "xterm-kitty"])
    #expect(capabilities.graphics == .kitty)
    if kept { session.keepImagesAfterExit() }
    _ = pty.drain()
    session.restore()
    #expect(pty.drain().contains("a=d,d=A") == !kept)
  }
}

/// The session's life beside input: forged window sizes, suspend and resume, the end of
/// input, the alternate signal stack. Serialized with the session tests above: one session
/// holds the process's signal handlers at a time.
extension TerminalSessionTests {
  /// Delivers `signal` to this thread now, through the real handler: the test runner's
  /// threads block signals, so it is unblocked for the moment.
  static func deliver(_ signal: Int32) {
    var only = sigset_t()
    sigemptyset(&only)
    sigaddset(&only, signal)
    var old = sigset_t()
    pthread_sigmask(SIG_UNBLOCK, &only, &old)
    raise(signal)
    pthread_sigmask(SIG_SETMASK, &old, nil)
  }

  @Test func aForgedKernelWindowSizeIsClamped() throws {
    let pty = try PseudoTerminal()
    defer { pty.close() }
    pty.setWindowSize(columns: 65_535, rows: 65_535, pixelWidth: 65_535, pixelHeight: 65_535)
    let session = try TerminalSession(modes: [], input: pty.follower, output: pty.follower)
    defer { session.restore() }
    #expect(
      session.size()
        == TerminalSize(columns: 4_096, rows: 4_096, pixelWidth: 65_535, pixelHeight: 65_535))
    #expect(session.size().cellPixelSize == PixelSize(width: 15, height: 15))
    pty.setWindowSize(columns: 0, rows: 0)
    #expect(session.size() == TerminalSize(columns: 80, rows: 24))
    // SIGWINCH reports the new size, clamped too.
    pty.setWindowSize(columns: 9_000, rows: 30)
    Self.deliver(SIGWINCH)
    #expect(
      session.readEvents(timeout: .seconds(10))
        == [.resize(TerminalSize(columns: 4_096, rows: 30))])
  }

  @Test func suspendRestoresTheTerminalAndContinueTakesItBack() throws {
    let pty = try PseudoTerminal()
    defer { pty.close() }
    let before = Self.localFlags(pty.follower)
    let session = try TerminalSession(input: pty.follower, output: pty.follower)
    defer { session.restore() }
    _ = pty.drain()
    // The real handlers run; only the final stop is left out, or the test runner would stop.
    SignalRestore.stopsProcess.store(false, ordering: .sequentiallyConsistent)
    defer { SignalRestore.stopsProcess.store(true, ordering: .sequentiallyConsistent) }
    let resumes = SignalRestore.resumeCount.load(ordering: .sequentiallyConsistent)

    Self.deliver(SIGTSTP)  // As Ctrl-Z would in cooked mode, or `kill -TSTP`.
    #expect(Self.localFlags(pty.follower) == before)
    let left = pty.drain()
    #expect(left.contains("\u{1B}[?1006l"))
    #expect(left.hasSuffix("\u{1B}[?25h\u{1B}[?1049l"))
    session.write(Array("a frame drawn while stopped".utf8))
    #expect(pty.drain().isEmpty)

    Self.deliver(SIGCONT)  // fg
    #expect(Self.localFlags(pty.follower) & tcflag_t(ICANON | ECHO | ISIG) == 0)
    let entered = pty.drain()
    #expect(entered.hasPrefix("\u{1B}[?1049h"))
    #expect(entered.contains("\u{1B}[?1006h"))
    #expect(SignalRestore.resumeCount.load(ordering: .sequentiallyConsistent) == resumes + 1)
    #expect(session.readEvents(timeout: .seconds(10)) == [.resize(session.size())])
    session.write(Array("x".utf8))
    #expect(pty.drain() == "x")

    session.restore()
    #expect(Self.localFlags(pty.follower) == before)
    #expect(pty.drain().hasSuffix("\u{1B}[?1049l"))
    Self.deliver(SIGCONT)  // A restored session is left alone.
    #expect(Self.localFlags(pty.follower) == before)
    #expect(pty.drain().isEmpty)
  }

  @Test func aRendererFromTheSessionRedrawsEverythingAfterAResume() throws {
    let pty = try PseudoTerminal()
    defer { pty.close() }
    let session = try TerminalSession(input: pty.follower, output: pty.follower)
    defer { session.restore() }
    SignalRestore.stopsProcess.store(false, ordering: .sequentiallyConsistent)
    defer { SignalRestore.stopsProcess.store(true, ordering: .sequentiallyConsistent) }
    let following = TerminalRenderer(
      capabilities: TerminalCapabilities(graphics: .kitty, followsSession: true))
    let unaware = TerminalRenderer(graphics: .kitty)
    var frame = FrameBuffer(width: 12, height: 8)
    frame.put("caption", x: 0, y: 7)
    let images = [
      ImagePlacement(
        imageID: 1, bitmap: try HalfBlockImageTests.stripes(),
        rect: CellRect(x: 0, y: 0, width: 4, height: 2))
    ]
    for renderer in [following, unaware] {
      #expect(TerminalRendererTests.count("a=t,", in: renderer.render(frame, images: images)) == 1)
      #expect(renderer.render(frame, images: images).isEmpty)
    }

    session.suspend()
    Self.deliver(SIGCONT)

    let redrawn = TerminalRendererTests.text(following.render(frame, images: images))
    #expect(redrawn.contains("\u{1B}[2J"))
    #expect(redrawn.contains("caption"))
    #expect(redrawn.contains("a=t,"))  // The restore freed every kitty image: upload again.
    #expect(redrawn.contains("a=p,i=1,"))
    #expect(following.render(frame, images: images).isEmpty)
    #expect(unaware.render(frame, images: images).isEmpty)
  }

  @Test func crashHandlersRunOnAnAlternateSignalStack() throws {
    let pty = try PseudoTerminal()
    defer { pty.close() }
    let session = try TerminalSession(modes: [], input: pty.follower, output: pty.follower)
    defer { session.restore() }
    for signal in SignalHandlers.fatalSignals + [SIGTSTP, SIGCONT, SIGWINCH] {
      var action = sigaction()
      #expect(sigaction(signal, nil, &action) == 0)
      #expect(action.sa_flags & SA_ONSTACK != 0, "signal \(signal)")
    }
    #expect(AlternateSignalStack.isInstalledOnCurrentThread)
    var stack = stack_t()
    #expect(sigaltstack(nil, &stack) == 0)
    #expect(stack.ss_size >= 16 * 1024)
  }

  @Test func aHungUpTerminalEndsReadEvents() throws {
    let pty = try PseudoTerminal()
    defer { close(pty.follower) }
    let session = try TerminalSession(modes: [], input: pty.follower, output: pty.follower)
    defer { session.restore() }
    #expect(!session.inputEnded)
    pty.closeLeader()
    var events: [InputEvent] = []
    for _ in 0..<100 where !session.inputEnded {
      events += session.readEvents(timeout: .seconds(10))
    }
    #expect(session.inputEnded)
    #expect(events.isEmpty)
    #expect(session.readEvents(timeout: .seconds(30)).isEmpty)  // At once: no wait, no spin.
  }

  @Test func theEventStreamFinishesWhenTheTerminalHangsUp() async throws {
    let pty = try PseudoTerminal()
    defer { close(pty.follower) }
    let session = try TerminalSession(modes: [], input: pty.follower, output: pty.follower)
    defer { session.restore() }
    var iterator = session.events().makeAsyncIterator()
    pty.type("q")
    #expect(await iterator.next() == .key(.character("q")))
    pty.closeLeader()
    var rest: [InputEvent] = []
    while let event = await iterator.next() { rest.append(event) }
    #expect(rest.isEmpty)
    #expect(session.inputEnded)
  }
}
