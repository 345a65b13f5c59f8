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
  /// placeholders); off for kitty placements and sixel, whose pixels the terminal may or may
  /// not move with the text.
  public var usesScrollRegions: Bool
  public private(set) var statistics = RenderStatistics()

  private var differ = FrameDiffer()
  private var previous: FrameBuffer?
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
    usesScrollRegions = graphics == .blocks || (graphics == .kitty && insideTmux)
    sixel = SixelLayer(cellSize: cellSize)
  }

  public convenience init(capabilities: TerminalCapabilities) {
    self.init(
      graphics: capabilities.graphics, synchronizedOutput: capabilities.synchronizedOutput,
      insideTmux: capabilities.insideTmux, cellPixelSize: capabilities.cellPixelSize,
      followsSession: capabilities.followsSession)
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
      previous = nil
    }
  }

  /// Forgets everything the terminal was showing, for when it was reset underneath the
  /// renderer (a suspend and resume): the next frame redraws from a cleared screen, with the
  /// pen and cursor unknown, and kitty images are uploaded again. Encoded caches are kept.
  public func reset() {
    previous = nil
    differ = FrameDiffer()
    pendingFrees = ByteWriter()
    kitty = KittyLayer(placeholders: kitty.placeholders, cellSize: kitty.cellSize)
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
    var sixelDraws: [SixelLayer.Draw] = []
    var damage = [Bool](repeating: false, count: frame.width * frame.height)
    switch graphics {
    case .blocks:
      blocks.compose(images, into: &composed, policy: policy, statistics: &statistics)
    case .kitty:
      // Uploads go before synchronized output: they change nothing visible.
      kittyPlacements = kitty.prepare(
        images, frame: &composed, policy: policy, uploadsOut: &out, statistics: &statistics)
    case .sixel:
      let planned = sixel.plan(
        images, screen: frame.bounds, policy: policy, statistics: &statistics)
      sixelDraws = sixel.damage(
        for: planned, previous: previous, next: composed, damage: &damage)
    }
    if synchronizedOutput { out.escape("[?2026h") }
    statistics.cellsWritten += differ.diff(
      previous: previous, next: composed, damaged: damage, scrolling: usesScrollRegions,
      into: &out)
    switch graphics {
    case .kitty:
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
    statistics.frames += 1
    statistics.bytes += out.count
    return out.bytes
  }
}
