import TesseraUtilities

/// One terminal image protocol as ``TerminalRenderer`` sees it: the renderer diffs the text
/// and frames the output, and asks its one layer everything that differs between protocols.
/// A frame is two steps: ``prepare(_:frame:previous:usesScrollRegions:policy:imageBudget:damage:before:statistics:)``
/// before the text diff, ``finish(into:)`` after it.
///
/// A layer is a reference type: a renderer owns exactly one for its whole life and changes it
/// every frame, so its caches are mutated in place, never copied out of an existential. The
/// types behind it are ``KittyGraphicsLayer``, ``SixelGraphicsLayer``,
/// ``ITerm2GraphicsLayer`` and ``BlockGraphicsLayer``; ``GraphicsLayers/make(_:settings:)``
/// is the one place that maps a ``GraphicsProtocol`` to one of them.
protocol GraphicsLayer: AnyObject {
  /// The protocol this layer speaks (``TerminalRenderer/graphics``).
  static var graphics: GraphicsProtocol { get }

  /// Whether ``ImageDrawPolicy/preview`` sends an image not on the terminal yet at a lower
  /// resolution (kitty's preview uploads). Where it does not, a preview frame draws only what
  /// is cached, and ``ImageDrawPolicy/forFrame(moving:fast:constrainedLink:graphics:)`` asks
  /// for `.preview` only where it does.
  static var sendsPreviews: Bool { get }

  /// Whether the terminal plays an ``ImagePlacement/animation`` itself once it is sent
  /// (kitty's animation frames): the app then draws no frame after the first.
  static var playsAnimations: Bool { get }

  /// Whether images this protocol showed stay in the terminal's memory after the app exits
  /// unless freed (kitty's uploads): ``TerminalSession`` then frees them all on leaving.
  static var keepsImagesAfterExit: Bool { get }

  /// A layer drawing with `settings`; what the probe learnt beyond them comes through
  /// ``configure(for:)``.
  init(settings: GraphicsLayerSettings)

  /// Whether the text differ may cross a short gap between changed cells by printing the
  /// unchanged cells again (``FrameDiffer/reprintsUnchangedCells``). False where images are
  /// pixels over cells (sixel, iTerm2): printing a cell wipes the pixels on it.
  var reprintsUnchangedCells: Bool { get }

  /// Whether a frame whose rows moved may be drawn by scrolling a region of the terminal
  /// (``TerminalRenderer/usesScrollRegions``' default). `movesWithText` is whether the
  /// terminal is known to move pixel images with scrolled text
  /// (``TerminalCapabilities/sixelMovesWithText``), nil when the renderer was not told.
  func usesScrollRegions(insideTmux: Bool, movesWithText: Bool?) -> Bool

  /// Takes what the capability probe learnt beyond the renderer's arguments (kitty: whether
  /// the terminal reads files on this machine, ``TerminalCapabilities/kittyLocalFiles``).
  func configure(for capabilities: TerminalCapabilities)

  /// The terminal is at the far end of a slow link (``TerminalRenderer/linkIsSlow``): a layer
  /// that can trade CPU or fidelity for bytes does (kitty: palette PNG uploads).
  var linkIsSlow: Bool { get set }

  /// One cell in pixels, what images are encoded for (clamped to ``TerminalLimits`` by the
  /// renderer). Setting another size re-encodes on demand; the renderer redraws after it.
  var cellSize: PixelSize { get set }

  /// The pane's top-left cell on the outer terminal's screen, where draws through tmux's
  /// passthrough are positioned (``TmuxState/paneOrigin``). The renderer resets after it.
  var origin: CellPoint { get set }

  /// From now on the layer encodes images on other threads, ahead of the frame that sends
  /// them, and calls `onReady` (on such a thread) when one is done; until then, a tile whose
  /// encoding is not done keeps what it shows and counts as deferred.
  func encodeInBackground(onReady: @escaping @Sendable () -> Void)

  /// The bytes of the largest image the last frame wrote as one piece the terminal reads
  /// whole (a sixel band, an iTerm2 image): what a key's answer may wait behind
  /// (``LinkPacer``). Zero where the layer's writes are small (kitty's chunks, cells).
  var largestDrawInLastFrame: Int { get }

  /// Where the last ``finish(into:)`` may be ended early (``FrameCut``): offsets into its
  /// `out`, ascending, each closing what it cuts (ST inside a sixel). None where the layer's
  /// writes are small anyway (kitty's chunks, cells).
  var cutsInLastFrame: [FrameCut] { get }

  /// Whether the layer's draws go whole, cut only between them: through tmux's passthrough,
  /// which forwards a sequence only once all of it arrived and puts its own resets after it,
  /// so a sixel cannot be cut inside nor go in two sequences.
  var cutsOnlyBetweenDraws: Bool { get }

  /// The last frame was ended at `cut`, one of ``cutsInLastFrame``: what came after it never
  /// reached the terminal, and the cells it would have drawn show something else (part of
  /// the draw, what was there, or nothing).
  func endLastFrame(at cut: FrameCut)

  /// The screen was cleared (`ED 2`: the first frame, a resize, a reset): whatever the layer
  /// believed was on it is gone.
  func screenCleared()

  /// The terminal was reset underneath the renderer (a suspend and resume, a new pane
  /// origin): forget what the terminal holds (kitty: its uploads are sent again), keep what
  /// was encoded.
  func reset()

  /// The bytes that take every image the layer placed off the terminal while the app's pane
  /// is hidden (kitty placements drawn past tmux would stay over what tmux shows next);
  /// nothing where images are cells or pixels tmux owns. The renderer resets after it.
  func hideAll(into out: inout ByteWriter)

  /// Forgets an image the app will not show again; the bytes that free it on the terminal
  /// (kitty's upload) go into `out`, written at the start of the next frame.
  func forget(imageID: UInt64, into out: inout ByteWriter)

  /// A frame's first step, before its text is diffed. Composes whatever the protocol draws as
  /// cells into `frame` (half blocks, kitty placeholders), plans the rest, and returns the
  /// rows that moved when the frame may be drawn by scrolling a region (`usesScrollRegions`,
  /// with `previous` the screen as the terminal shows it; nil after a clear). Cells whose
  /// images leave are marked in `damage` (one flag per cell of `frame`) for the text diff to
  /// repaint. Bytes that change nothing visible and belong before the frame's synchronized
  /// output (kitty uploads) go into `before`. The work done is counted in `statistics`.
  /// `imageBudget` bounds the image bytes this frame adds (uploads, draws): once they reach
  /// it, the rest wait for a later frame and what is on the terminal stays (one image may end
  /// past the budget, so any budget above zero moves on; zero adds no image byte at all);
  /// text is never bounded.
  func prepare(
    _ images: [ImagePlacement], frame: inout FrameBuffer, previous: FrameBuffer?,
    usesScrollRegions: Bool, policy: ImageDrawPolicy, imageBudget: Int, damage: inout [Bool],
    before: inout ByteWriter, statistics: inout RenderStatistics
  ) -> ScrollDetector.Scroll?

  /// A frame's last step, after its text: appends the images planned by `prepare` (kitty
  /// placements, sixel or iTerm2 draws) and returns whether the cursor moved (the text
  /// differ then forgets where it is).
  func finish(into out: inout ByteWriter) -> Bool
}

extension GraphicsLayer {
  /// Layers whose encodings are cheap make them in the frame.
  func encodeInBackground(onReady: @escaping @Sendable () -> Void) {}

  /// Layers that write in small pieces (kitty's chunks) or cells leave the link's queue as
  /// the pacer sets it.
  var largestDrawInLastFrame: Int { 0 }

  var cutsInLastFrame: [FrameCut] { [] }

  var cutsOnlyBetweenDraws: Bool { false }

  func endLastFrame(at cut: FrameCut) {}

  /// Layers with nothing to trade keep no setting.
  var linkIsSlow: Bool {
    get { false }
    set {}
  }

  /// The rows that moved from `previous` to `next`, by their text, when scroll regions are
  /// used: for layers whose images are cells of the frame (or placed after it).
  static func rowsMoved(
    from previous: FrameBuffer?, to next: FrameBuffer, usesScrollRegions: Bool
  ) -> ScrollDetector.Scroll? {
    guard usesScrollRegions, let previous else { return nil }
    return ScrollDetector.detect(previous: previous, next: next)
  }
}

/// What a layer is made with: the renderer's arguments, resolved.
struct GraphicsLayerSettings: Sendable {
  /// One cell in pixels, already clamped to ``TerminalLimits``.
  var cellSize: PixelSize
  /// Image commands go through tmux's passthrough (``TerminalCapabilities/passthrough``).
  var passthrough: Bool
  /// Kitty images as Unicode placeholder cells (``TerminalCapabilities/kittyPlaceholders``).
  var kittyPlaceholders: Bool
}

/// The one place that maps a ``GraphicsProtocol`` to the ``GraphicsLayer`` that draws it. A new
/// protocol is a case of the enum, a type conforming to ``GraphicsLayer``, its row here, and
/// its rows in ``GraphicsRule``.
///
/// - Complexity: O(1) per lookup.
enum GraphicsLayers {
  /// The type that draws `graphics`.
  static func type(for graphics: GraphicsProtocol) -> any GraphicsLayer.Type {
    switch graphics {
    case .kitty: KittyGraphicsLayer.self
    case .sixel: SixelGraphicsLayer.self
    case .iterm2: ITerm2GraphicsLayer.self
    case .blocks: BlockGraphicsLayer.self
    }
  }

  /// A layer drawing `graphics` with `settings`.
  static func make(
    _ graphics: GraphicsProtocol, settings: GraphicsLayerSettings
  )
    -> any GraphicsLayer
  {
    type(for: graphics).init(settings: settings)
  }
}
