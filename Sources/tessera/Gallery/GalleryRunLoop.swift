import Foundation
import TesseraTerminal

/// Drives the screen at up to 60 frames a second: input in, physics advanced on the wall
/// clock, a frame composed and only its changes written. Idle frames cost a wake-up and no
/// output.
@MainActor
final class GalleryRunLoop {
  let session: TerminalSession
  let renderer: TerminalRenderer
  let screen: GalleryScreen
  private var pending: [InputEvent] = []
  private var drawTimes: [ContinuousClock.Instant] = []
  private var lastOffset = 0
  private var imagesHeldBack = false
  private var frameCount = 0

  static let frameInterval = Duration.milliseconds(16)

  init(session: TerminalSession, renderer: TerminalRenderer, screen: GalleryScreen) {
    self.session = session
    self.renderer = renderer
    self.screen = screen
  }

  func run() async {
    let events = session.events()
    let pump = Task { @MainActor [weak self] in
      for await event in events { self?.pending.append(event) }
    }
    defer { pump.cancel() }
    let feedLoad = Task { await screen.start() }
    defer { feedLoad.cancel() }

    let clock = ContinuousClock()
    var last = clock.now
    // A terminal that went away (EOF, hang-up) ends the gallery instead of a loop drawing
    // for nobody.
    while !Task.isCancelled, !session.inputEnded {
      let now = clock.now
      let elapsed = now - last
      last = now
      let queued = pending
      pending.removeAll()
      for event in queued {
        switch screen.handle(event) {
        case .quit: return
        case .refresh: Task { await screen.refresh() }
        case .suspend: session.suspend()
        case .none: break
        }
        if case .resize(let size) = event, let cell = size.cellPixelSize {
          renderer.cellPixelSize = cell
        }
      }
      let moving = screen.tick(
        milliseconds: Double(elapsed.components.attoseconds) / 1e15
          + Double(elapsed.components.seconds) * 1000)
      frameCount += 1
      let animatingFeed = screen.feed.items.isEmpty && frameCount % 6 == 0
      if screen.needsDisplay || moving || imagesHeldBack || animatingFeed {
        draw(at: now)
      }
      try? await clock.sleep(until: now + Self.frameInterval)
    }
  }

  private func draw(at now: ContinuousClock.Instant) {
    screen.needsDisplay = false
    drawTimes.append(now)
    drawTimes.removeAll { now - $0 > .seconds(1) }
    // During a fast fling only images that cost nothing are drawn, as yazi does, so the
    // scroll never waits on image bytes; the next quiet frame draws the rest.
    let offset = screen.collectionView.presentedOffset
    let fast = abs(offset - lastOffset) > max(2, screen.collectionView.viewportHeight / 3)
    lastOffset = offset
    imagesHeldBack = fast
    let frame = screen.compose(framesPerSecond: drawTimes.count, spinner: frameCount / 6)
    let bytes = renderer.render(
      frame.buffer, images: frame.images, policy: fast ? .cachedOnly : .all)
    session.write(bytes)
  }
}
