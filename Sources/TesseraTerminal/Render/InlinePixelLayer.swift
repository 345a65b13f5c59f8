import Foundation
import TesseraUtilities

/// What sixel and iTerm2 share behind ``GraphicsLayer``: images are pixels over cells, drawn
/// after the text by one ``InlineImageLayer`` engine with the protocol's
/// ``InlineImageLayer/Encoding``, and the frame steps are implemented once, here. A conforming
/// type (``SixelGraphicsLayer``, ``ITerm2GraphicsLayer``) is its storage and the rules in which
/// the two differ: its encoding and when it may scroll a region.
///
/// Scrolls are found from each row's text and the images over it together (rows of a tile are
/// blank text but distinct images), and the text differ never reprints unchanged cells:
/// printing a cell wipes the pixels on it.
protocol InlinePixelLayer: GraphicsLayer {
  /// How the engine writes a draw's pixels.
  static var encoding: InlineImageLayer.Encoding { get }
  /// The engine: which part of which image is on each cell, the encoded caches.
  var engine: InlineImageLayer { get set }
  /// Per row of the last frame, its text and the images over it
  /// (``InlineImageLayer/rowSignatures(_:wants:)``); nil after a reset.
  var signatures: [Int]? { get set }
  /// The draws `prepare` planned, written by `finish`.
  var draws: [InlineImageLayer.Draw] { get set }
}

extension InlinePixelLayer {
  static var sendsPreviews: Bool { false }
  static var keepsImagesAfterExit: Bool { false }
  static var playsAnimations: Bool { false }

  var reprintsUnchangedCells: Bool { false }

  func configure(for capabilities: TerminalCapabilities) {}

  /// Setting another size drops the engine's caches (they are per pixel size).
  var cellSize: PixelSize {
    get { engine.cellSize }
    set {
      let (origin, palettes) = (engine.origin, engine.palettes)
      engine = InlineImageLayer(
        cellSize: newValue, encoding: Self.encoding, passthrough: engine.passthrough)
      engine.origin = origin
      engine.palettes = palettes
      signatures = nil
    }
  }

  var origin: CellPoint {
    get { engine.origin }
    set { engine.origin = newValue }
  }

  /// A sixel tile's palette is made on other threads, one at a time per core.
  func encodeInBackground(onReady: @escaping @Sendable () -> Void) {
    encode(
      on: .background, concurrency: ProcessInfo.processInfo.activeProcessorCount,
      onReady: onReady)
  }

  /// Palettes are made by `executor` from now on (tests hold and release its work).
  func encode(
    on executor: EncodeAhead<InlineImageLayer.PaletteKey, SixelPalette>.Executor,
    concurrency: Int, onReady: @escaping @Sendable () -> Void
  ) {
    engine.palettes = EncodeAhead(executor: executor, concurrency: concurrency, onReady: onReady)
  }

  func screenCleared() { engine.screenCleared() }

  var largestDrawInLastFrame: Int { engine.largestDraw }

  var cutsInLastFrame: [FrameCut] { engine.cuts }

  var cutsOnlyBetweenDraws: Bool { engine.passthrough }

  func endLastFrame(at cut: FrameCut) { engine.endLastFrame(at: cut) }

  /// Forgets the last frame's rows; what was encoded stays.
  func reset() {
    signatures = nil
    draws = []
  }

  /// Pixels tmux draws over its own cells: nothing to take off.
  func hideAll(into out: inout ByteWriter) {}

  /// Nothing is held on the terminal: the encoded caches age out by themselves.
  func forget(imageID: UInt64, into out: inout ByteWriter) {}

  func prepare(
    _ images: [ImagePlacement], frame: inout FrameBuffer, previous: FrameBuffer?,
    usesScrollRegions: Bool, policy: ImageDrawPolicy, imageBudget: Int, damage: inout [Bool],
    before: inout ByteWriter, statistics: inout RenderStatistics
  ) -> ScrollDetector.Scroll? {
    let wants = engine.wants(images, screen: frame.bounds)
    let next = InlineImageLayer.rowSignatures(frame, wants: wants)
    var scroll: ScrollDetector.Scroll?
    if usesScrollRegions, previous != nil, let last = signatures {
      scroll = ScrollDetector.detect(
        previous: last, next: next, blank: ScrollDetector.blankRowHash(width: frame.width))
    }
    signatures = next
    if let scroll { engine.scrolled(scroll) }
    let base = previous.map { previous in
      scroll.map { ScrollDetector.apply($0, to: previous) } ?? previous
    }
    draws = engine.plan(
      wants, base: base, next: frame, policy: policy, imageBudget: imageBudget, damage: &damage,
      statistics: &statistics)
    return scroll
  }

  func finish(into out: inout ByteWriter) -> Bool {
    defer { draws = [] }
    engine.emit(draws, into: &out)
    return !draws.isEmpty
  }
}

extension InlinePixelLayer {
  /// The engine a conforming type starts with.
  static func engine(for settings: GraphicsLayerSettings) -> InlineImageLayer {
    InlineImageLayer(
      cellSize: settings.cellSize, encoding: encoding, passthrough: settings.passthrough)
  }
}
