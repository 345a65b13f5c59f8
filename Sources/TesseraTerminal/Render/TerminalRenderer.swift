import TesseraUtilities

/// Turns the app's frames into terminal bytes: the text diff against the last frame, and
/// images by the chosen protocol, inside synchronized output (DEC 2026) when the terminal has
/// it. The app writes the returned bytes (``TerminalSession/write(_:)``).
///
/// One renderer per screen; it remembers what the terminal shows. A frame costs
/// O(width × height) to diff plus its images' conversion (cached, see each layer).
public final class TerminalRenderer {
  public let graphics: GraphicsProtocol
  public var synchronizedOutput: Bool
  /// Whether a frame whose rows moved is drawn by scrolling a region of the terminal (a few
  /// bytes) and writing only the rows that came in. On for cell images (blocks, kitty
  /// placeholders) and for sixel outside tmux (the terminal moves sixel pixels with the
  /// text, as a VT340, xterm, mlterm and foot do; ``init(capabilities:)`` keeps it only for
  /// terminals known to); off for kitty placements. Off, a sixel tile that moved is drawn
  /// again, tile by tile: never the whole screen.
  public var usesScrollRegions: Bool
  public private(set) var statistics = RenderStatistics()

  private var differ = FrameDiffer()
  private var previous: FrameBuffer?
  /// Per row of the last frame, its text and the images over it (sixel's scroll detection).
  private var previousSignatures: [Int]?
  private var blocks = BlockLayer()
  private var kitty: KittyLayer
  /// Sixel and iTerm2 images: pixels over cells.
  private var inline: InlineImageLayer
  private var pendingFrees = ByteWriter()
  private let followsSession: Bool
  private var seenResumes: Int

  /// - Parameters:
  ///   - graphics: the image protocol (see ``TerminalCapabilities/graphics``).
  ///   - insideTmux: kitty images then go through placeholders and passthrough, unless
  ///     `passthrough` and `kittyPlaceholders` say otherwise.
  ///   - passthrough: image commands go through tmux's passthrough, placed at
  ///     ``passthroughOrigin`` (see ``TerminalCapabilities/passthrough``).
  ///   - kittyPlaceholders: kitty images as Unicode placeholders.
  ///   - cellPixelSize: one cell in pixels, for sixel (clamped to ``TerminalLimits``).
  ///   - followsSession: reset after the ``TerminalSession`` resumes from a suspend (see
  ///     ``TerminalCapabilities/followsSession``).
  public init(
    graphics: GraphicsProtocol, synchronizedOutput: Bool = false, insideTmux: Bool = false,
    passthrough: Bool? = nil, kittyPlaceholders: Bool? = nil,
    cellPixelSize: PixelSize = PixelSize(width: 10, height: 20), followsSession: Bool = false
  ) {
    self.graphics = graphics
    self.synchronizedOutput = synchronizedOutput
    self.followsSession = followsSession
    seenResumes = SignalRestore.resumeCount.load(ordering: .sequentiallyConsistent)
    let range = TerminalLimits.cellPixelRange
    let cellSize = PixelSize(
      width: cellPixelSize.width.clamped(to: range), height: cellPixelSize.height.clamped(to: range)
    )
    let byDefault = TerminalCapabilities.kittyThroughTmuxByDefault(
      insideTmux: insideTmux, graphics: graphics)
    let placeholders = kittyPlaceholders ?? byDefault
    let passthrough = passthrough ?? byDefault
    kitty = KittyLayer(placeholders: placeholders, passthrough: passthrough, cellSize: cellSize)
    usesScrollRegions =
      graphics == .blocks || (graphics == .kitty && placeholders)
      || (graphics == .sixel && !insideTmux)
    inline = InlineImageLayer(
      cellSize: cellSize, encoding: graphics == .iterm2 ? .iterm2 : .sixel,
      passthrough: passthrough)
    blocks.cellSize = cellSize
    differ.reprintsUnchangedCells = graphics != .sixel && graphics != .iterm2
  }

  public convenience init(capabilities: TerminalCapabilities) {
    self.init(
      graphics: capabilities.graphics, synchronizedOutput: capabilities.synchronizedOutput,
      insideTmux: capabilities.insideTmux, passthrough: capabilities.passthrough,
      kittyPlaceholders: capabilities.kittyPlaceholders,
      cellPixelSize: capabilities.cellPixelSize, followsSession: capabilities.followsSession)
    kitty.localFiles = capabilities.kittyLocalFiles
    if let origin = capabilities.tmux?.paneOrigin { passthroughOrigin = origin }
    if graphics == .sixel || graphics == .iterm2 {
      usesScrollRegions = !capabilities.insideTmux && capabilities.sixelMovesWithText
    }
  }

  /// Where the pane's top-left cell is on the outer terminal's screen, for images drawn
  /// through tmux's passthrough (``TmuxState/paneOrigin``); setting another redraws.
  public var passthroughOrigin = CellPoint(x: 0, y: 0) {
    didSet {
      guard passthroughOrigin != oldValue else { return }
      kitty.origin = passthroughOrigin
      inline.origin = passthroughOrigin
      reset()
    }
  }

  /// The cell size images are encoded for (sixel pixels, kitty upload sizes); changing it
  /// re-encodes on demand. A size outside ``TerminalLimits`` is clamped into it.
  public var cellPixelSize: PixelSize {
    get { inline.cellSize }
    set {
      guard let newValue = TerminalLimits.cellSize(width: newValue.width, height: newValue.height),
        newValue != inline.cellSize
      else { return }
      inline = InlineImageLayer(
        cellSize: newValue, encoding: inline.encoding, passthrough: inline.passthrough)
      inline.origin = passthroughOrigin
      kitty.cellSize = newValue
      blocks.cellSize = newValue
      previous = nil
      previousSignatures = nil
    }
  }

  /// Forgets everything the terminal was showing, for when it was reset underneath the
  /// renderer (a suspend and resume): the next frame redraws from a cleared screen, with the
  /// pen and cursor unknown, and kitty images are uploaded again. Encoded caches are kept.
  public func reset() {
    previous = nil
    differ = FrameDiffer()
    differ.reprintsUnchangedCells = graphics != .sixel && graphics != .iterm2
    previousSignatures = nil
    pendingFrees = ByteWriter()
    kitty = KittyLayer(
      placeholders: kitty.placeholders, passthrough: kitty.passthrough, cellSize: kitty.cellSize,
      localFiles: kitty.localFiles)
    kitty.origin = passthroughOrigin
  }

  /// The bytes that take every image off the terminal while the app's pane is not shown
  /// (tmux sent focus-out): kitty placements drawn past tmux would stay over whatever tmux
  /// shows next. The next frame draws everything again (``reset()``).
  public func hideImages() -> [UInt8] {
    var out = ByteWriter()
    if graphics == .kitty && !kitty.placeholders {
      KittyCommands.hideAll(passthrough: kitty.passthrough, into: &out)
    }
    reset()
    return out.bytes
  }

  /// Forgets an image the app will not show again: frees its kitty upload.
  public func forget(imageID: UInt64) {
    if graphics == .kitty { kitty.forget(imageID: imageID, into: &pendingFrees) }
  }

  /// The bytes that turn the screen into `frame` with `images` over it. No image shows over
  /// the cells of `occluders` (an overlay's box): each is drawn around them, in every
  /// protocol, and whole again once they are gone.
  public func render(
    _ frame: FrameBuffer, images: [ImagePlacement] = [], occluders: [CellRect] = [],
    policy: ImageDrawPolicy = .all
  ) -> [UInt8] {
    let images = occluders.isEmpty ? images : images.flatMap { $0.pieces(around: occluders) }
    if followsSession {
      let resumes = SignalRestore.resumeCount.load(ordering: .sequentiallyConsistent)
      if resumes != seenResumes {
        seenResumes = resumes
        reset()
      }
    }
    var out = ByteWriter(capacity: 1 << 16)
    out.append(pendingFrees.bytes)
    pendingFrees = ByteWriter()
    if let last = previous, last.width != frame.width || last.height != frame.height {
      previous = nil
    }
    if previous == nil {
      kitty.screenCleared()
      inline.screenCleared()
    }
    var composed = frame
    var kittyPlacements: [(KittyLayer.PlacementKey, KittyLayer.Geometry)] = []
    var kittyUploads = ByteWriter()
    var inlineDraws: [InlineImageLayer.Draw] = []
    var damage = [Bool](repeating: false, count: frame.width * frame.height)
    var scroll: ScrollDetector.Scroll?
    switch graphics {
    case .blocks:
      blocks.compose(images, into: &composed, policy: policy, statistics: &statistics)
      scroll = detectScroll(in: composed)
    case .kitty:
      // Uploads go before synchronized output: they change nothing visible. Not before a
      // clear, though: kitty (0.26) frees on `ED 2` an image that has no placement yet, so
      // after a resize every upload would be lost; then they follow the redrawn text.
      kittyPlacements = kitty.prepare(
        images, frame: &composed, policy: policy, uploadsOut: &kittyUploads,
        statistics: &statistics)
      if previous != nil {
        out.append(kittyUploads.bytes)
        kittyUploads = ByteWriter()
      }
      scroll = detectScroll(in: composed)
    case .sixel, .iterm2:
      let wants = inline.wants(images, screen: frame.bounds)
      let signatures = InlineImageLayer.rowSignatures(composed, wants: wants)
      if usesScrollRegions, previous != nil, let last = previousSignatures {
        scroll = ScrollDetector.detect(
          previous: last, next: signatures,
          blank: ScrollDetector.blankRowHash(width: frame.width))
      }
      previousSignatures = signatures
      if let scroll { inline.scrolled(scroll) }
      let base = previous.map { previous in
        scroll.map { ScrollDetector.apply($0, to: previous) } ?? previous
      }
      inlineDraws = inline.plan(
        wants, base: base, next: composed, policy: policy, damage: &damage,
        statistics: &statistics)
    }
    if synchronizedOutput { out.escape("[?2026h") }
    statistics.cellsWritten += differ.diff(
      previous: previous, next: composed, damaged: damage, scroll: scroll, into: &out)
    switch graphics {
    case .kitty:
      out.append(kittyUploads.bytes)
      if kitty.place(kittyPlacements, into: &out) { differ.cursor = nil }
    case .sixel, .iterm2:
      if !inlineDraws.isEmpty {
        inline.emit(inlineDraws, into: &out)
        differ.cursor = nil
      }
    case .blocks:
      break
    }
    if synchronizedOutput { out.escape("[?2026l") }
    previous = composed
    if graphics != .sixel && graphics != .iterm2 { previousSignatures = nil }
    statistics.frames += 1
    statistics.bytes += out.count
    return out.bytes
  }

  /// The rows that moved since the last frame, when scroll regions are used.
  private func detectScroll(in next: FrameBuffer) -> ScrollDetector.Scroll? {
    guard usesScrollRegions, let previous else { return nil }
    return ScrollDetector.detect(previous: previous, next: next)
  }
}
