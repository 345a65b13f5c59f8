import TesseraUtilities

/// Turns the app's frames into terminal bytes: the text diff against the last frame, and
/// images by the chosen protocol, inside synchronized output (DEC 2026) when the terminal has
/// it. The app writes the returned bytes (``TerminalSession/write(_:)``).
///
/// What differs between protocols is asked of one ``GraphicsLayer``, chosen by
/// ``GraphicsLayers/make(_:settings:)``; the renderer itself never branches on the protocol.
///
/// One renderer per screen; it remembers what the terminal shows. A frame costs
/// O(width × height) to diff plus its images' conversion (cached, see each layer).
public final class TerminalRenderer {
  public var graphics: GraphicsProtocol { type(of: layer).graphics }
  /// Whether an ``ImagePlacement/animation`` plays in the terminal by itself once drawn (kitty):
  /// the app then draws the placement again only as a still would be, not once a frame.
  public var playsAnimations: Bool { type(of: layer).playsAnimations }
  public var synchronizedOutput: Bool
  /// Whether a frame whose rows moved is drawn by scrolling a region of the terminal (a few
  /// bytes) and writing only the rows that came in. On for cell images (blocks, kitty
  /// placeholders) and for sixel outside tmux (the terminal moves sixel pixels with the
  /// text, as a VT340, xterm, mlterm and foot do; ``init(capabilities:)`` keeps it only for
  /// terminals known to); off for kitty placements. Off, a sixel tile that moved is drawn
  /// again, tile by tile: never the whole screen.
  public var usesScrollRegions: Bool
  /// The terminal is at the far end of a slow link (SSH): images spend CPU to keep keys
  /// answered and bytes few (issue 34).
  /// - Sixel tiles go as bands of one or two cell rows, each its own image, instead of whole
  ///   (``bandRows(atMost:cellHeight:)``): a key's answer waits behind a band at most, not a
  ///   whole tile's half-megabyte string, which no terminal lets anything interrupt.
  /// - kitty uploads go as palette PNGs (``KittyPayloadFormat/palettePNG``), 0.38× the bytes.
  public var linkIsSlow = false {
    didSet { layer.linkIsSlow = linkIsSlow }
  }

  /// The cell rows of a sixel band, at most `limit`: the fewest whose pixels waste least in
  /// whole sixel rows. A band is drawn in whole sixel rows of six pixels, the last one taking
  /// in the rows of the band below: a 20-pixel cell row costs four sixel rows for 20 pixels
  /// (20 % drawn twice), two of them seven for 40 (5 %); 17- and 18-pixel rows waste 1 and 0
  /// alone. O(limit).
  static func bandRows(atMost limit: Int, cellHeight: Int) -> Int {
    let height = max(1, cellHeight)
    func waste(_ rows: Int) -> Double {
      let pixels = rows * height
      return Double((pixels + 5) / 6 * 6 - pixels) / Double(pixels)
    }
    return (1...max(1, limit)).min { waste($0) < waste($1) - 0.001 } ?? 1
  }

  /// The link's rate as the pacer measured it (bytes a second), over a slow link: sizes the
  /// sixel pieces drawn through tmux (``piecesThroughTmux(of:rows:)``).
  public var linkBytesPerSecond: Double?

  /// The longest a sixel piece through tmux takes on a slow link: tmux forwards a
  /// passthrough sequence only once all of it arrived, so a key's answer waits behind the
  /// piece under way. Inside tmux at 2 Mbit/s + 40 ms, halves of a band (41 kB, 164 ms) had
  /// keys answered at p95 294–317 ms (`tessera bench link --in-tmux --terminals xterm`).
  static let longestPieceThroughTmux = 0.1
  /// What a sixel piece of photo-like cells costs a pixel, to size pieces before encoding
  /// them: a 380 × 40-pixel band of the bench's photos is about 82 kB.
  static let sixelBytesPerPixel = 5.4

  /// The pieces side by side a band of `rows` cell rows of `image` goes in through tmux: each
  /// at most ``TmuxPassthrough/chunkLimit`` at 8 bytes a pixel (sixel's worst is about 5.5:
  /// a colour and a character for each pixel of a six-pixel column); over a slow link also
  /// at most ``longestPieceThroughTmux`` of the measured link (each piece declares its own
  /// colours, so no more pieces than that, and four at most, as a rate measured in the
  /// first round trips reads low: at 20 Mbit/s a band is one), two while the link is
  /// unmeasured. O(1).
  func piecesThroughTmux(of image: ImagePlacement, rows: Int) -> Int {
    let area = image.clip.map { $0.intersection(image.rect) } ?? image.rect
    let pixels = area.width * cellPixelSize.width * rows * cellPixelSize.height
    let bySize = (pixels * 8 + TmuxPassthrough.chunkLimit - 1) / TmuxPassthrough.chunkLimit
    guard linkIsSlow else { return max(1, bySize) }
    guard let rate = linkBytesPerSecond, rate.isFinite, rate > 0 else { return max(2, bySize) }
    let seconds = Double(pixels) * Self.sixelBytesPerPixel / rate
    let byTime = Int((seconds / Self.longestPieceThroughTmux).rounded(.up).clamped(to: 1...4))
    return max(bySize, byTime)
  }

  public private(set) var statistics = RenderStatistics()
  /// The image bytes of the last frame ``render(_:images:occluders:policy:imageBudget:)``
  /// returned: uploads and draws, not text (``LinkPacer/wrote(bytes:imageBytes:largestDraw:at:)``).
  public private(set) var imageBytesInLastFrame = 0
  /// The largest image the last frame wrote as one piece the terminal reads whole (a sixel
  /// band): ``LinkPacer/wrote(bytes:imageBytes:largestDraw:at:)`` keeps the link's queue
  /// room for it.
  public var largestImageDrawInLastFrame: Int { layer.largestDrawInLastFrame }
  /// Where the last frame ``render(_:images:occluders:policy:imageBudget:)`` returned may be
  /// ended early (``FrameCut``): between its draws and after each sixel row, all after its
  /// text. Ending it there is ``endLastFrame(at:)``'s to say.
  public private(set) var lastFrameCuts: [FrameCut] = []

  /// The last frame was written only up to `cut` (one of ``lastFrameCuts``) and its closing:
  /// the images after it are not on the terminal, and the next frame draws them again.
  public func endLastFrame(at cut: FrameCut) {
    guard lastFrameCuts.contains(cut) else { return }
    layer.endLastFrame(at: cut)
    lastFrameCuts = []
  }

  private var differ = FrameDiffer()
  private var previous: FrameBuffer?
  /// The image protocol: everything in which protocols differ.
  let layer: any GraphicsLayer
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
    self.synchronizedOutput = synchronizedOutput
    self.followsSession = followsSession
    seenResumes = SignalRestore.resumeCount.load(ordering: .sequentiallyConsistent)
    let range = TerminalLimits.cellPixelRange
    let cellSize = PixelSize(
      width: cellPixelSize.width.clamped(to: range), height: cellPixelSize.height.clamped(to: range)
    )
    let byDefault = TerminalCapabilities.kittyThroughTmuxByDefault(
      insideTmux: insideTmux, graphics: graphics)
    layer = GraphicsLayers.make(
      graphics,
      settings: GraphicsLayerSettings(
        cellSize: cellSize, passthrough: passthrough ?? byDefault,
        kittyPlaceholders: kittyPlaceholders ?? byDefault))
    usesScrollRegions = layer.usesScrollRegions(insideTmux: insideTmux, movesWithText: nil)
    differ.reprintsUnchangedCells = layer.reprintsUnchangedCells
  }

  public convenience init(capabilities: TerminalCapabilities) {
    self.init(
      graphics: capabilities.graphics, synchronizedOutput: capabilities.synchronizedOutput,
      insideTmux: capabilities.insideTmux, passthrough: capabilities.passthrough,
      kittyPlaceholders: capabilities.kittyPlaceholders,
      cellPixelSize: capabilities.cellPixelSize, followsSession: capabilities.followsSession)
    layer.configure(for: capabilities)
    if let origin = capabilities.tmux?.paneOrigin { passthroughOrigin = origin }
    usesScrollRegions = layer.usesScrollRegions(
      insideTmux: capabilities.insideTmux, movesWithText: capabilities.sixelMovesWithText)
  }

  /// Where the pane's top-left cell is on the outer terminal's screen, for images drawn
  /// through tmux's passthrough (``TmuxState/paneOrigin``); setting another redraws.
  public var passthroughOrigin = CellPoint(x: 0, y: 0) {
    didSet {
      guard passthroughOrigin != oldValue else { return }
      layer.origin = passthroughOrigin
      reset()
    }
  }

  /// The cell size images are encoded for (sixel pixels, kitty upload sizes); changing it
  /// re-encodes on demand. A size outside ``TerminalLimits`` is clamped into it.
  public var cellPixelSize: PixelSize {
    get { layer.cellSize }
    set {
      guard let newValue = TerminalLimits.cellSize(width: newValue.width, height: newValue.height),
        newValue != layer.cellSize
      else { return }
      layer.cellSize = newValue
      previous = nil
    }
  }

  /// From now on images are encoded on other threads (every core), ahead of the frame that
  /// sends them, where a layer's encoding is costly (kitty's PNGs): a frame never stops for
  /// one, so keys are answered and the link carries one tile while the next is encoded. A
  /// tile whose encoding is not done keeps what it shows (counted in
  /// ``RenderStatistics/imagesDeferred``); `onReady` is called, on the encoding's thread, when
  /// one is done: draw again then.
  public func encodeInBackground(onReady: @escaping @Sendable () -> Void) {
    layer.encodeInBackground(onReady: onReady)
  }

  /// Forgets everything the terminal was showing, for when it was reset underneath the
  /// renderer (a suspend and resume): the next frame redraws from a cleared screen, with the
  /// pen and cursor unknown, and kitty images are uploaded again. Encoded caches are kept.
  public func reset() {
    previous = nil
    differ = FrameDiffer()
    differ.reprintsUnchangedCells = layer.reprintsUnchangedCells
    pendingFrees = ByteWriter()
    layer.reset()
  }

  /// The bytes that take every image off the terminal while the app's pane is not shown
  /// (tmux sent focus-out): kitty placements drawn past tmux would stay over whatever tmux
  /// shows next. The next frame draws everything again (``reset()``).
  public func hideImages() -> [UInt8] {
    var out = ByteWriter()
    layer.hideAll(into: &out)
    reset()
    return out.bytes
  }

  /// Forgets an image the app will not show again: frees its kitty upload.
  public func forget(imageID: UInt64) {
    layer.forget(imageID: imageID, into: &pendingFrees)
  }

  /// The bytes that turn the screen into `frame` with `images` over it. No image shows over
  /// the cells of `occluders` (an overlay's box): each is drawn around them, in every
  /// protocol, and whole again once they are gone. At most about `imageBudget` bytes of new
  /// image data go out (``LinkPacer``): the rest of the images wait for a later frame.
  public func render(
    _ frame: FrameBuffer, images: [ImagePlacement] = [], occluders: [CellRect] = [],
    policy: ImageDrawPolicy = .all, imageBudget: Int = .max
  ) -> [UInt8] {
    var images = occluders.isEmpty ? images : images.flatMap { $0.pieces(around: occluders) }
    let throughTmux = layer.cutsOnlyBetweenDraws
    if graphics == .sixel, linkIsSlow || throughTmux {
      let rows = Self.bandRows(atMost: 2, cellHeight: cellPixelSize.height)
      images = images.flatMap { $0.bands(of: rows) }
      // Through tmux each sixel must go in one passthrough sequence: tmux writes its own
      // resets after each one, which would end a sixel split over two. So bands there, and
      // pieces side by side small enough for one sequence; over a slow link at least
      // halves, as a band cannot be cut for a key there either (half a band to wait behind,
      // for a palette each).
      if throughTmux {
        images = images.flatMap { $0.columns(piecesThroughTmux(of: $0, rows: rows)) }
      }
    }
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
    if previous == nil { layer.screenCleared() }
    var composed = frame
    var damage = [Bool](repeating: false, count: frame.width * frame.height)
    let beforeImages = out.count
    let sendsPreviews = type(of: layer).sendsPreviews
    let scroll = layer.prepare(
      images, frame: &composed, previous: previous, usesScrollRegions: usesScrollRegions,
      policy: policy == .previewsFirst && !sendsPreviews ? .all : policy,
      imageBudget: max(0, imageBudget), damage: &damage, before: &out,
      statistics: &statistics)
    var imageBytes = out.count - beforeImages
    if synchronizedOutput { out.escape("[?2026h") }
    statistics.cellsWritten += differ.diff(
      previous: previous, next: composed, damaged: damage, scroll: scroll, into: &out)
    let beforeDraws = out.count
    if layer.finish(into: &out) { differ.cursor = nil }
    imageBytes += out.count - beforeDraws
    imageBytesInLastFrame = imageBytes
    statistics.imageBytes += imageBytes
    let endOfSynchronizedOutput: [UInt8] = synchronizedOutput ? Array("\u{1B}[?2026l".utf8) : []
    lastFrameCuts = layer.cutsInLastFrame.map {
      FrameCut(
        offset: $0.offset, closing: $0.closing + endOfSynchronizedOutput, draw: $0.draw,
        rowsDrawn: $0.rowsDrawn)
    }
    out.append(endOfSynchronizedOutput)
    previous = composed
    statistics.frames += 1
    statistics.bytes += out.count
    return out.bytes
  }
}
