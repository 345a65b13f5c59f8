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
  private var sixel: SixelLayer
  private var pendingFrees = ByteWriter()
  private let followsSession: Bool
  private var seenResumes: Int

  /// - Parameters:
  ///   - graphics: the image protocol (see ``TerminalCapabilities/graphics``).
  ///   - insideTmux: kitty images then go through placeholders and passthrough.
  ///   - cellPixelSize: one cell in pixels, for sixel (clamped to ``TerminalLimits``).
  ///   - followsSession: reset after the ``TerminalSession`` resumes from a suspend (see
  ///     ``TerminalCapabilities/followsSession``).
  public init(
    graphics: GraphicsProtocol, synchronizedOutput: Bool = false, insideTmux: Bool = false,
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
    kitty = KittyLayer(placeholders: insideTmux, cellSize: cellSize)
    usesScrollRegions =
      graphics == .blocks || (graphics == .kitty && insideTmux)
      || (graphics == .sixel && !insideTmux)
    sixel = SixelLayer(cellSize: cellSize)
    blocks.cellSize = cellSize
    differ.reprintsUnchangedCells = graphics != .sixel
  }

  public convenience init(capabilities: TerminalCapabilities) {
    self.init(
      graphics: capabilities.graphics, synchronizedOutput: capabilities.synchronizedOutput,
      insideTmux: capabilities.insideTmux, cellPixelSize: capabilities.cellPixelSize,
      followsSession: capabilities.followsSession)
    kitty.localFiles = capabilities.kittyLocalFiles
    if graphics == .sixel {
      usesScrollRegions =
        !capabilities.insideTmux && Self.movesSixelWithText(capabilities.terminalName)
    }
  }

  /// Terminals seen to move sixel pixels with the text when a region scrolls (xterm checked
  /// by eye under Xvfb, `xterm -ti vt340`; mlterm and foot by their documentation). Names
  /// as XTVERSION or `TERM_PROGRAM` give them.
  static let sixelScrollingTerminals = ["xterm", "mlterm", "foot"]

  /// Whether the terminal named `name` moves sixel pixels with scrolled text; unknown
  /// terminals are redrawn tile by tile instead.
  static func movesSixelWithText(_ name: String?) -> Bool {
    guard let name = name?.lowercased() else { return false }
    return sixelScrollingTerminals.contains { name.hasPrefix($0) }
  }

  /// The cell size images are encoded for (sixel pixels, kitty upload sizes); changing it
  /// re-encodes on demand. A size outside ``TerminalLimits`` is clamped into it.
  public var cellPixelSize: PixelSize {
    get { sixel.cellSize }
    set {
      guard let newValue = TerminalLimits.cellSize(width: newValue.width, height: newValue.height),
        newValue != sixel.cellSize
      else { return }
      sixel = SixelLayer(cellSize: newValue)
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
    differ.reprintsUnchangedCells = graphics != .sixel
    previousSignatures = nil
    pendingFrees = ByteWriter()
    kitty = KittyLayer(
      placeholders: kitty.placeholders, cellSize: kitty.cellSize, localFiles: kitty.localFiles)
  }

  /// Forgets an image the app will not show again: frees its kitty upload.
  public func forget(imageID: UInt64) {
    if graphics == .kitty { kitty.forget(imageID: imageID, into: &pendingFrees) }
  }

  /// The bytes that turn the screen into `frame` with `images` over it.
  public func render(
    _ frame: FrameBuffer, images: [ImagePlacement] = [], policy: ImageDrawPolicy = .all
  ) -> [UInt8] {
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
      sixel.screenCleared()
    }
    var composed = frame
    var kittyPlacements: [(KittyLayer.PlacementKey, KittyLayer.Geometry)] = []
    var kittyUploads = ByteWriter()
    var sixelDraws: [SixelLayer.Draw] = []
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
    case .sixel:
      let wants = sixel.wants(images, screen: frame.bounds)
      let signatures = SixelLayer.rowSignatures(composed, wants: wants)
      if usesScrollRegions, previous != nil, let last = previousSignatures {
        scroll = ScrollDetector.detect(
          previous: last, next: signatures,
          blank: ScrollDetector.blankRowHash(width: frame.width))
      }
      previousSignatures = signatures
      if let scroll { sixel.scrolled(scroll) }
      let base = previous.map { previous in
        scroll.map { ScrollDetector.apply($0, to: previous) } ?? previous
      }
      sixelDraws = sixel.plan(
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
    case .sixel:
      if !sixelDraws.isEmpty {
        sixel.emit(sixelDraws, into: &out)
        differ.cursor = nil
      }
    case .blocks:
      break
    }
    if synchronizedOutput { out.escape("[?2026l") }
    previous = composed
    if graphics != .sixel { previousSignatures = nil }
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
