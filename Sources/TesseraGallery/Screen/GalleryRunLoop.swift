import Foundation
import TesseraTerminal

/// Drives the screen at up to 60 frames a second while anything moves: input in, physics
/// advanced on the wall clock, a frame composed and only its changes written. At rest (nothing
/// moving, nothing to draw) it sleeps until input, a resize or a completion wakes it: an idle
/// gallery costs no frames and no CPU.
@MainActor
final class GalleryRunLoop {
  let session: TerminalSession
  let renderer: TerminalRenderer
  let screen: GalleryScreen
  /// How images reach the terminal: drawn past tmux (passthrough, not placeholders), they are
  /// taken off while the pane is not shown and placed again where the pane is now.
  let capabilities: TerminalCapabilities
  private var pending: [InputEvent] = []
  /// While the loop waits for the probes' answers (`settleProbes`): each answer wakes it.
  private var settlingProbes = false
  private var drawTimes: [ContinuousClock.Instant] = []
  private var lastOffset = 0
  private var imagesHeldBack = false
  private var frameCount = 0
  private let wakeup = Wakeup()
  /// How well the terminal link keeps up with this loop's writes.
  private var outputRate = OutputRateMeter()
  /// Keeps the image bytes in flight to the terminal near what the link carries in its round
  /// trip, from the terminal's own DA1 answers, so a key's answer never queues behind
  /// megabytes of images (a slow SSH link); it also measures the link for the status bar.
  private var pacer: LinkPacer
  /// The frame being written as fast as the link's queue takes it (``PacedFrame``): no other
  /// is drawn until it is through, and input ends it at its next cut, so a key's answer never
  /// waits behind the rest of a sixel band that has not left the gallery.
  private var writing: PacedFrame?
  /// The image bytes and the largest draw of the frame being written, told to the pacer.
  private var writingImages = (bytes: 0, largestDraw: 0)
  /// Whether the last frame left images for later because the pacer's budget ran out.
  private var imagesPaced = false
  /// Input (a key, the mouse) came since the last frame: its answer goes out with no image
  /// bytes in front of it, the images follow in the next frame.
  private var answeringInput = false
  private let pacingStart = ContinuousClock.now
  /// SSH: every image byte crosses the network, so flings send previews from the start.
  private let remote = ImageDrawPolicy.isRemote(environment: ProcessInfo.processInfo.environment)
  /// Over SSH to kitty itself, a screen's tiles go as previews first (a picture on each in a
  /// few percent of the time) and then at full detail. Not past tmux: Konsole through tmux's
  /// passthrough kept a preview when the full upload with the same id followed (16589e0).
  private let previewsFirst: Bool
  private let frameLog = FrameLog(environment: ProcessInfo.processInfo.environment)
  /// The longest step the physics take after a rest: a wake-up continues from where it was.
  static let maximumStep = Duration.milliseconds(100)

  static let frameInterval = Duration.milliseconds(16)
  /// The longest a loop waiting for the pacer sleeps before it looks again.
  static let pacedWait = Duration.milliseconds(250)
  /// Over SSH the status bar's running figures change at most this often (``RunningFigures``).
  static let figuresInterval = Duration.milliseconds(250)

  init(
    session: TerminalSession, renderer: TerminalRenderer, screen: GalleryScreen,
    capabilities: TerminalCapabilities
  ) {
    self.session = session
    self.renderer = renderer
    self.screen = screen
    self.capabilities = capabilities
    pacer = LinkPacer(passthrough: capabilities.passthrough)
    // Over SSH the first screen goes as previews first to kitty itself, also through tmux's
    // passthrough (Konsole, which speaks kitty's protocol, kept a preview when its full upload
    // came under the same id), and to any sixel terminal (full detail is drawn over the
    // preview's pixels).
    previewsFirst =
      remote
      && (renderer.graphics == .sixel
        || (capabilities.terminalName?.lowercased().hasPrefix("kitty") ?? false))
    // Over SSH a sixel tile goes in bands of one or two cell rows, whichever draws fewer
    // pixels twice (``TerminalRenderer/bandRows(atMost:cellHeight:)``): a key's answer waits
    // behind one band (18 to 36 kB of a 380-pixel-wide photo tile), not a whole tile. One-row
    // bands of 20-pixel cells sent 28 % more bytes than whole tiles (`tessera bench link`).
    // kitty's uploads go as palette PNGs, 0.38× the bytes of lossless ones.
    if remote { renderer.linkIsSlow = true }
    screen.terminal.playsAnimations = renderer.playsAnimations
  }

  /// Seconds on the pacer's clock.
  private func pacingTime(_ instant: ContinuousClock.Instant = .now) -> Double {
    let (seconds, attoseconds) = (instant - pacingStart).components
    return Double(seconds) + Double(attoseconds) / 1e18
  }

  /// Images drawn past tmux, in the outer terminal's coordinates: tmux does not know them.
  private var drawsPastTmux: Bool { capabilities.passthrough && !capabilities.kittyPlaceholders }

  /// Ctrl-L, or the pane regained: everything is drawn again from a cleared screen, and
  /// images past tmux where tmux says the pane is now (a layout change moves it).
  private func redrawEverything() async {
    if capabilities.passthrough {
      // tmux is asked in a process of its own (up to 2 s): never on the main actor, which
      // would stop every frame and completion meanwhile.
      let tmux = await Task.detached(priority: .userInitiated) { TmuxState.query() }.value
      if let tmux { renderer.passthroughOrigin = tmux.paneOrigin }
    }
    renderer.reset()
    screen.needsDisplay = true
  }

  /// The longest the gallery waits for the link probes' answers before it gives the terminal
  /// away.
  static let probeSettleTime = Duration.seconds(1)

  /// Waits, at most ``probeSettleTime``, for the answers to the link probes still out before
  /// the terminal is given back (quit, Ctrl-Z, the key-handler): an answer arriving after that
  /// is typed into the shell. CI saw it: tmux's "1;2c" before `fg` made the shell run "1;2cfg".
  private func settleProbes() async {
    let deadline = ContinuousClock.now + Self.probeSettleTime
    settlingProbes = true
    defer { settlingProbes = false }
    while pacer.probesOutstanding > 0, !pacer.unanswered, !session.inputEnded,
      ContinuousClock.now < deadline
    {
      await wakeup.wait(until: deadline)
    }
  }

  /// Runs until the person quits or the terminal goes. The feed's first load is the
  /// launcher's: it starts before the terminal is set up.
  func run() async {
    let events = session.events()
    let wakeup = wakeup
    let pump = Task { @MainActor [weak self] in
      for await event in events {
        guard let self else { break }
        if case .reply(.primaryDeviceAttributes) = event {
          // The terminal has read everything up to a probe: timed as it arrives, not when
          // the loop next looks, and never handed to the screen as input.
          self.pacer.answered(at: self.pacingTime())
          if self.imagesPaced || self.settlingProbes { wakeup.signal() }
          continue
        }
        self.pending.append(event)
        wakeup.signal()
      }
      wakeup.signal()  // input ended: let the loop see it
    }
    screen.services.onNeedsDisplay = { wakeup.signal() }
    // Images are encoded on the other cores, never on this loop: a key is answered while a
    // tile's PNG is made, and the link carries one tile while the next is encoded.
    renderer.encodeInBackground { [weak screen] in
      Task { @MainActor in
        screen?.needsDisplay = true
        wakeup.signal()
      }
    }
    defer { pump.cancel() }

    let clock = ContinuousClock()
    var last = clock.now
    // A terminal that went away (EOF, hang-up) ends the gallery instead of a loop drawing
    // for nobody.
    while !Task.isCancelled, !session.inputEnded {
      let now = clock.now
      let elapsed = min(now - last, Self.maximumStep)
      last = now
      let queued = pending
      pending.removeAll()
      // A held key sends input every frame: every other frame still carries images.
      let input = queued.contains {
        if case .reply = $0 { false } else { true }
      }
      // The key's answer goes ahead of what is left of the frame being written: it ends at
      // its next cut (a sixel's row), and what it did not draw is drawn again later.
      if input, writing != nil { writeFrame(endingEarly: true) }
      answeringInput = input && !answeringInput
      for event in queued {
        switch screen.handle(event) {
        case .quit:
          await settleProbes()
          return
        case .refresh: Task { await screen.refresh() }
        case .suspend:
          await settleProbes()
          session.suspend()
        case .redraw: await redrawEverything()
        case .runKeyHandler(let key, let paths):
          await settleProbes()
          session.lendTerminal()
          let outcome = await screen.services.keyHandler.run(
            key: key, paths: paths, terminal: session.output)
          session.takeTerminalBack()
          screen.keyHandlerFinished(outcome)
          await redrawEverything()
        case .none: break
        }
        switch event {
        case .resize(let size):
          if let cell = size.cellPixelSize { renderer.cellPixelSize = cell }
          if drawsPastTmux { await redrawEverything() }
        case .focus(false) where drawsPastTmux:
          session.write(renderer.hideImages())
        case .focus(true) where drawsPastTmux:
          await redrawEverything()
        default: break
        }
      }
      if let due = screen.status.figures.due, now >= due { screen.needsDisplay = true }
      screen.advanceSlideshow(at: now)
      screen.advanceAnimation(at: now)
      screen.advanceVideo(at: now)
      let moving = screen.tick(
        milliseconds: Double(elapsed.components.attoseconds) / 1e15
          + Double(elapsed.components.seconds) * 1000)
      frameCount += 1
      // The spinner turns while the feed loads with nothing to show yet.
      let loadingFeed = screen.feed.items.isEmpty && screen.feed.state.isLoading
      let held = imagesHeldBack || imagesPaced
      if writing != nil {
        writeFrame()
      } else if screen.needsDisplay || moving || held || (loadingFeed && frameCount % 6 == 0) {
        draw(at: now)
      }
      let waitsForTheLink = imagesPaced && !pacer.hasRoom(at: pacingTime(now))
      if writing != nil {
        // The rest of the frame a frame's interval later, or at once for a key.
        await wakeup.wait(until: now + Self.frameInterval)
      } else if waitsForTheLink && !imagesHeldBack && !moving && !screen.needsDisplay {
        // Waiting for the terminal to read what is in flight: its answer (or input) wakes
        // the loop; the timeout covers an answer the pacer gives up on.
        await wakeup.wait(until: now + Self.pacedWait)
      } else if moving || imagesHeldBack || imagesPaced || screen.needsDisplay {
        try? await clock.sleep(until: now + Self.frameInterval)
      } else if loadingFeed {
        // The spinner's next frame, or the feed's first items as soon as they come: a fixed
        // sleep here made a second launch's first screen wait up to a frame for its layout,
        // and its images, which layout requests, with it.
        await wakeup.wait(until: now + Self.frameInterval)
      } else if let due = screen.nextTimedWake {
        await wakeup.wait(until: due)
        last = clock.now
      } else {
        await wakeup.wait()
        last = clock.now
      }
    }
  }

  private func draw(at now: ContinuousClock.Instant) {
    screen.needsDisplay = false
    drawTimes.append(now)
    drawTimes.removeAll { now - $0 > .seconds(1) }
    // During a fast fling only images that cost nothing are drawn, as yazi does, so the
    // scroll never waits on image bytes; over a link that cannot keep up (SSH, or writes that
    // keep the loop waiting) kitty sends low-resolution previews while anything moves. The
    // next quiet frame draws the rest at full detail.
    let offset = screen.collectionView.presentedOffset
    let fast = abs(offset - lastOffset) > max(2, screen.collectionView.viewportHeight / 3)
    let moving = offset != lastOffset
    lastOffset = offset
    let policy = ImageDrawPolicy.forFrame(
      moving: moving, fast: fast, constrainedLink: remote || outputRate.isBehind,
      graphics: renderer.graphics, previewsFirst: previewsFirst)
    screen.terminal.linkBytesPerSecond = remote || outputRate.isBehind ? pacer.bytesPerSecond : nil
    renderer.linkBytesPerSecond = remote ? pacer.bytesPerSecond : nil
    screen.status.link = LinkStatus.text(
      outputRate, measured: pacer.bytesPerSecond, remote: remote, graphics: renderer.graphics)
    screen.status.figures.interval = remote ? Self.figuresInterval : nil
    screen.status.figures.now = now
    let frame = screen.compose(framesPerSecond: drawTimes.count, spinner: frameCount / 6)
    let budget = answeringInput ? 0 : pacer.imageBudget(at: pacingTime(now))
    let deferredBefore = renderer.statistics.imagesDeferred
    let previewsBefore = renderer.statistics.previewUploads
    let bytes = renderer.render(
      frame.buffer, images: frame.images, occluders: frame.occluders, policy: policy,
      imageBudget: budget)
    // A frame of first-screen previews is followed by one at full detail.
    imagesHeldBack =
      policy == .previewsFirst
      ? renderer.statistics.previewUploads > previewsBefore : policy != .all
    imagesPaced = budget != .max && renderer.statistics.imagesDeferred > deferredBefore
    frameLog?.frameComposed(endingAt: session.bytesWritten + bytes.count)
    writing = PacedFrame(bytes: bytes, cuts: renderer.lastFrameCuts)
    writingImages = (renderer.imageBytesInLastFrame, renderer.largestImageDrawInLastFrame)
    writeFrame()
  }

  /// Writes what the link's queue takes of the frame being written (all of it where the link
  /// is not paced by its queue), or, `endingEarly`, the rest up to its next cut and the
  /// cut's closing; the probe follows its end.
  private func writeFrame(endingEarly: Bool = false) {
    guard var frame = writing else { return }
    let slice: [UInt8]
    if endingEarly {
      let (bytes, cut) = frame.endEarly()
      if let cut { renderer.endLastFrame(at: cut) }
      slice = bytes
    } else {
      slice = Array(frame.next(room: pacer.room(at: pacingTime())))
    }
    writing = frame.isDone ? nil : frame
    guard !slice.isEmpty else { return }
    // The probe is asked for before the write, as it may go inside the slice's last
    // passthrough sequence; a write that blocks makes its round trip read longer by the wait.
    let probe = pacer.wrote(
      bytes: slice.count, imageBytes: writingImages.bytes,
      largestDraw: writingImages.largestDraw, endsFrame: frame.isDone, at: pacingTime())
    writingImages.largestDraw = 0
    let bytes = probe.map { pacer.appending($0, to: slice) } ?? slice
    let clock = ContinuousClock()
    let start = clock.now
    session.write(bytes)
    outputRate.record(bytes: bytes.count, start: start, blocked: clock.now - start)
  }
}
