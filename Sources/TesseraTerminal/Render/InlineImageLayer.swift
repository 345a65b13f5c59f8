import TesseraUtilities

/// Images drawn as pixels over the frame's cells after its text, the way sixel and iTerm2's
/// inline images (OSC 1337) both are: pixels on cells, wiped by text written over them,
/// moved with a scrolled region by the terminals that do (``Encoding``).
///
/// The layer remembers which part of which image is on each cell of the screen
/// (``Fragment``s). When the terminal scrolls a region (xterm, mlterm and foot move sixel
/// pixels with the text), the fragments move with it, and a tile that only moved costs
/// nothing: only the cells of a tile that are not already on the screen, in the right place,
/// untouched by text, are drawn — the rows entering on a scroll, or the cells around text that
/// changed inside a tile. Sixel pixels are not cells: where an image leaves, its cells are
/// marked damaged so the text diff repaints them. Images never touch the screen's last row (a
/// sixel there scrolls some terminals).
///
/// A tile fills its cells as in every protocol (its centre at the cells' shape, never a band
/// or a stretch). For sixel it is resampled and quantized once per pixel size
/// (``SixelPalette``, cached), and any crop of it is encoded from those indices, cached per
/// crop: rows drawn on a scroll are exactly the pixels the whole tile has, with no seam. For
/// iTerm2 the resampled tile is cached and each crop is a JPEG (a PNG where it has alpha),
/// shown over exactly its cells. Inside tmux, with passthrough, each draw is positioned in the
/// outer terminal's coordinates (``TmuxPassthrough``). A tile whose pixels are more than the
/// screen's (an extreme shape, a tall list row) is resampled and quantized only in its
/// visible crop, so the pixel work is bounded by the screen whatever the image.
///
/// - Complexity: O(screen cells + fragments) per frame to plan, plus the encoding of what is
///   drawn (see ``SixelEncoder``).
struct InlineImageLayer {
  /// How a draw's pixels are written.
  enum Encoding: Sendable, Hashable {
    /// DEC sixel (`DCS q … ST`).
    case sixel
    /// iTerm2's inline images: `OSC 1337 ; File=inline=1;… : base64 BEL`.
    case iterm2
  }

  struct EncodingKey: Hashable {
    var imageID: UInt64
    var pixelWidth: Int
    var pixelHeight: Int
    var crop: CellRect
    /// The pixel rows encoded from the crop's top (see ``sixelRows(top:height:limit:)``).
    var pixelRows: Int
    /// The crop of the tile's coarse preview (``SixelPreview``), not of the tile.
    var preview = false
  }

  struct ResampleKey: Hashable {
    var imageID: UInt64
    var pixelWidth: Int
    var pixelHeight: Int
  }

  /// An image at a place: its pixels, at a size, with its top-left cell at `x`, `y` (which
  /// may be off the screen).
  struct Identity: Hashable {
    var image: ResampleKey
    var x: Int
    var y: Int
    /// The placement's clip: the pieces of one image around an overlay are distinct wants.
    var clip: CellRect?

    /// The image at its place, whatever the clip: a cell shows the same pixels of it whether
    /// the tile is whole or cut into pieces around an overlay, so the pieces of a tile already
    /// on the screen cost nothing when an overlay opens, and closing it draws only the cells
    /// it covered.
    var place: Place { Place(image: image, x: x, y: y) }
  }

  /// An image at a place, without the clip (``Identity/place``).
  struct Place: Hashable {
    var image: ResampleKey
    var x: Int
    var y: Int
  }

  /// Cells of the screen showing the part of an image that belongs there.
  struct Fragment: Hashable {
    var identity: Identity
    var cells: CellRect
    /// The cells show the tile's coarse preview: a later full-detail frame draws them again.
    var preview = false
  }

  /// A placement this frame: the image, where, and the cells of it that are visible.
  struct Want {
    var identity: Identity
    var visible: CellRect
    var placement: ImagePlacement
  }

  /// Cached sixel bytes to write with the cursor at the top-left of `cells`.
  struct Draw: Hashable {
    var key: EncodingKey
    var cells: CellRect
    /// The image at its place the draw belongs to (its ``Fragment``'s).
    var identity: Identity
  }

  var cellSize: PixelSize
  let encoding: Encoding
  /// Draws go through tmux's passthrough, placed at the pane's cells on the outer screen.
  var passthrough: Bool
  /// The pane's top-left on the outer screen (``TmuxState/paneOrigin``), for passthrough.
  var origin = CellPoint(x: 0, y: 0)
  /// A tile's quantized pixels, at full detail or as its preview (``SixelPreview``).
  struct PaletteKey: Hashable {
    var image: ResampleKey
    var preview: Bool
  }

  private var quantized = LRUCache<PaletteKey, SixelPalette>(costLimit: 40 << 20)
  /// Where a sixel tile's full palette (its median cut: tens of milliseconds for a photo tile)
  /// is made: in the frame by default, on other threads ahead of the tile's first draw when
  /// the owner asks (``GraphicsLayer/encodeInBackground(onReady:)``).
  var palettes = EncodeAhead<PaletteKey, SixelPalette>(executor: .inline)
  private var resampled = LRUCache<ResampleKey, [UInt8]>(costLimit: 32 << 20)
  private var encoded = LRUCache<EncodingKey, [UInt8]>(costLimit: 48 << 20)
  private(set) var onScreen: [Fragment] = []
  /// The bytes of the largest draw the last ``plan(_:base:next:policy:imageBudget:damage:statistics:)``
  /// made: a draw is one image the terminal reads whole, so a link's queue is at least this
  /// long while it goes (``LinkPacer/wrote(bytes:imageBytes:largestDraw:at:)``).
  private(set) var largestDraw = 0
  /// Where the last ``emit(_:into:)`` may be ended early (``FrameCut``).
  private(set) var cuts: [FrameCut] = []
  /// The last ``emit(_:into:)``'s draws, numbered as its cuts number them.
  private var emitted: [Draw] = []

  init(cellSize: PixelSize, encoding: Encoding = .sixel, passthrough: Bool = false) {
    self.cellSize = cellSize
    self.encoding = encoding
    self.passthrough = passthrough
  }

  mutating func screenCleared() { onScreen.removeAll() }

  /// The screen's rows images may use: all but the last.
  static func usable(_ screen: CellRect) -> CellRect {
    CellRect(x: 0, y: 0, width: screen.width, height: max(0, screen.height - 1))
  }

  /// The placements that show on `screen`.
  func wants(_ placements: [ImagePlacement], screen: CellRect) -> [Want] {
    let usable = Self.usable(screen)
    return placements.compactMap { placement in
      guard let visible = placement.visible(in: usable) else { return nil }
      let image = ResampleKey(
        imageID: placement.imageID, pixelWidth: placement.rect.width * cellSize.width,
        pixelHeight: placement.rect.height * cellSize.height)
      return Want(
        identity: Identity(
          image: image, x: placement.rect.x, y: placement.rect.y, clip: placement.clip),
        visible: visible, placement: placement)
    }
  }

  /// One hash per row of `frame` with the images wanted over it, so a scroll is found from
  /// text and pixels together (rows of a tile are blank text but distinct images).
  static func rowSignatures(_ frame: FrameBuffer, wants: [Want]) -> [Int] {
    var hashes = ScrollDetector.rowHashes(frame)
    var imageHashes = [Hasher](repeating: Hasher(), count: frame.height)
    var covered = [Bool](repeating: false, count: frame.height)
    for want in wants {
      for row in want.visible.y..<want.visible.maxY where row >= 0 && row < frame.height {
        imageHashes[row].combine(want.identity.image)
        imageHashes[row].combine(want.visible.x)
        imageHashes[row].combine(want.visible.width)
        imageHashes[row].combine(want.identity.x)
        imageHashes[row].combine(row - want.identity.y)
        covered[row] = true
      }
    }
    for row in 0..<frame.height where covered[row] {
      var hasher = imageHashes[row]
      hasher.combine(hashes[row])
      hashes[row] = hasher.finalize()
    }
    return hashes
  }

  /// The terminal scrolled `scroll`: fragments inside its rows move with it and are clipped
  /// to them; a fragment across the region's edge keeps its part outside where it was.
  mutating func scrolled(_ scroll: ScrollDetector.Scroll) {
    var moved: [Fragment] = []
    let region = scroll.top...scroll.bottom
    for fragment in onScreen {
      let cells = fragment.cells
      let above = CellRect(
        x: cells.x, y: cells.y, width: cells.width,
        height: min(cells.maxY, region.lowerBound) - cells.y)
      let belowTop = max(cells.y, region.upperBound + 1)
      let below = CellRect(
        x: cells.x, y: belowTop, width: cells.width, height: cells.maxY - belowTop)
      for outside in [above, below] where !outside.isEmpty {
        moved.append(Fragment(identity: fragment.identity, cells: outside))
      }
      let insideTop = max(cells.y, region.lowerBound)
      let insideBottom = min(cells.maxY, region.upperBound + 1)
      guard insideBottom > insideTop else { continue }
      let shiftedTop = max(insideTop - scroll.distance, region.lowerBound)
      let shiftedBottom = min(insideBottom - scroll.distance, region.upperBound + 1)
      guard shiftedBottom > shiftedTop else { continue }
      var identity = fragment.identity
      identity.y -= scroll.distance
      moved.append(
        Fragment(
          identity: identity,
          cells: CellRect(
            x: cells.x, y: shiftedTop, width: cells.width, height: shiftedBottom - shiftedTop)))
    }
    onScreen = moved
  }

  /// This frame's draws. `base` is the screen's text as it is before the frame's text diff
  /// (after any scroll; nil when cleared) and `next` the frame's: a cell whose text changes
  /// is written, which wipes the pixels on it. Cells of images that leave are marked in
  /// `damage` so the text diff repaints them. Only cells not already showing the right
  /// pixels are drawn, as the smallest rectangle covering them per tile.
  ///
  /// Sixel draws previews (``SixelPreview``, a tenth of the bytes or less) under `.preview` for
  /// what has no full detail encoded yet, and under `.previewsFirst` while some tile shown has
  /// nothing on the screen; a frame drawing at full detail draws over them. A preview that
  /// waits for the budget stays on the screen meanwhile.
  mutating func plan(
    _ wants: [Want], base: FrameBuffer?, next: FrameBuffer, policy: ImageDrawPolicy,
    imageBudget: Int = .max, damage: inout [Bool], statistics: inout RenderStatistics
  ) -> [Draw] {
    if base == nil { onScreen.removeAll() }
    let width = next.width
    let screen = next.bounds
    func written(_ column: Int, _ row: Int) -> Bool {
      let index = row * width + column
      guard let base else { return true }
      return damage[index] || base.cells[index] != next.cells[index]
    }
    // Fragments of images not wanted here any more are wiped by the text diff.
    let shown = policy == .none ? [] : wants
    // Every visible rectangle wanted of an image at its place (one per piece around an
    // overlay); a fragment on screen is kept where any of them wants it.
    var wanted: [Place: [CellRect]] = [:]
    for want in shown { wanted[want.identity.place, default: []].append(want.visible) }
    var kept: [Place: [(cells: CellRect, preview: Bool)]] = [:]
    for fragment in onScreen {
      let cells = fragment.cells.intersection(screen)
      guard !cells.isEmpty else { continue }
      guard let visibles = wanted[fragment.identity.place] else {
        Self.mark(cells, in: &damage, width: width)
        continue
      }
      let insides = visibles.map { cells.intersection($0) }.filter { !$0.isEmpty }
      Self.markOutside(cells, of: insides, in: &damage, width: width)
      kept[fragment.identity.place, default: []].append(
        contentsOf: insides.map { ($0, fragment.preview) })
    }
    if policy == .none { statistics.imagesDeferred += wants.count }
    // Previews while moving over a slow link, or until every tile shown (every band of it)
    // has a picture.
    let previewing =
      encoding == .sixel
      && (policy == .preview
        || (policy == .previewsFirst
          && shown.contains { want in
            !(kept[want.identity.place] ?? []).contains {
              !$0.cells.intersection(want.visible).isEmpty
            }
          }))
    let usable = Self.usable(screen)
    let screenPixels = Self.area(usable.width * cellSize.width, usable.height * cellSize.height)
    var draws: [Draw] = []
    var fragments: [Fragment] = []
    // Cells drawn over this frame: a placement after another one that overlaps it is drawn
    // again there, so the later stays on top.
    var painted = [Bool](repeating: false, count: damage.count)
    var spent = 0
    largestDraw = 0
    var palettesWanted: Set<PaletteKey> = []
    // Palettes of tiles that left are dropped before they are made.
    defer { palettes.keep(only: palettesWanted) }
    for want in shown {
      let visible = want.visible
      var covered = [Bool](repeating: false, count: visible.width * visible.height)
      let keptHere = (kept[want.identity.place] ?? []).map {
        (cells: $0.cells.intersection(visible), preview: $0.preview)
      }.filter { !$0.cells.isEmpty }
      // A preview counts as drawn only while previews are what the frame draws.
      let keptPreview = previewing && keptHere.contains { $0.preview }
      for (cells, preview) in keptHere where previewing || !preview {
        for row in cells.y..<cells.maxY {
          for column in cells.x..<cells.maxX
          where !written(column, row) && !painted[row * width + column] {
            covered[(row - visible.y) * visible.width + column - visible.x] = true
          }
        }
      }
      guard let needed = Self.boundingBox(of: covered, in: visible) else {
        statistics.imageCacheHits += 1
        fragments.append(Fragment(identity: want.identity, cells: visible, preview: keptPreview))
        continue
      }
      let identity = want.identity
      let crop = CellRect(
        x: needed.x - identity.x, y: needed.y - identity.y, width: needed.width,
        height: needed.height)
      let rows =
        encoding == .iterm2
        ? crop.height * cellSize.height
        : Self.sixelRows(
          top: crop.y * cellSize.height, height: crop.height * cellSize.height,
          limit: min(
            identity.image.pixelHeight,
            (Self.visibleBottom(of: visible, among: wanted[identity.place] ?? [])
              - identity.y) * cellSize.height))
      var key = EncodingKey(
        imageID: identity.image.imageID, pixelWidth: identity.image.pixelWidth,
        pixelHeight: identity.image.pixelHeight, crop: crop, pixelRows: rows)
      // A preview where full detail is not encoded yet and the tile is within the screen's
      // pixels (a larger one is only ever encoded in its visible crop).
      key.preview =
        previewing && encoded.peek(key) == nil
        && Self.area(key.pixelWidth, key.pixelHeight) <= screenPixels
      // The tile's palette is asked for ahead of its draw (while previews go, or the link
      // carries other bands); a full-detail draw waits for it without stopping the frame.
      let fullKey = PaletteKey(image: identity.image, preview: false)
      var fullDetail = key
      fullDetail.preview = false
      var paletteWaits = false
      // Inline, a palette is made only for the draw that needs it now.
      let drawsNow = spent < imageBudget && !key.preview && encoded.peek(key) == nil
      if encoding == .sixel, policy == .all || policy == .previewsFirst,
        drawsNow || palettes.asksAhead,
        encoded.peek(fullDetail) == nil,
        Self.area(key.pixelWidth, key.pixelHeight) <= screenPixels,
        quantized.peek(fullKey) == nil
      {
        palettesWanted.insert(fullKey)
        let bitmap = want.placement.bitmap
        palettes.request(fullKey) { Self.palette(of: bitmap, size: fullKey.image) }
        if let palette = palettes.take(fullKey) {
          quantized.insert(palette, for: fullKey, cost: palette.indices.count)
          statistics.pixelsResampled += key.pixelWidth * key.pixelHeight
        } else {
          paletteWaits = !key.preview
        }
      }
      // Past the frame's budget the rest wait for a later frame; one draw may end past it.
      let withinBudget = spent < imageBudget
      if withinBudget, let bytes = encoded.peek(key) {
        statistics.imageCacheHits += 1
        spent += bytes.count
      } else if withinBudget, !paletteWaits,
        key.preview || policy == .all || policy == .previewsFirst
      {
        encode(want.placement, key: key, screen: screen, statistics: &statistics)
        statistics.imageConversions += 1
        spent += encoded.peek(key)?.count ?? 0
      } else {
        // Deferred: what is already there and untouched stays; the rest shows the text.
        statistics.imagesDeferred += 1
        for (cells, preview) in keptHere {
          if Self.anyWritten(cells, { written($0, $1) || painted[$1 * width + $0] }) {
            Self.mark(cells, in: &damage, width: width)
          } else {
            fragments.append(Fragment(identity: identity, cells: cells, preview: preview))
          }
        }
        continue
      }
      if key.preview { statistics.previewUploads += 1 }
      largestDraw = max(largestDraw, encoded.peek(key)?.count ?? 0)
      draws.append(Draw(key: key, cells: needed, identity: identity))
      fragments.append(
        Fragment(identity: identity, cells: visible, preview: key.preview || keptPreview))
      for row in needed.y..<needed.maxY {
        for column in needed.x..<needed.maxX { painted[row * width + column] = true }
      }
    }
    onScreen = fragments
    return draws
  }

  /// Appends the cached bytes of each draw at its position, and notes where the output may
  /// be ended early (``cuts``): before each draw and, in a sixel written as it is (not
  /// through tmux's passthrough, whose wrapping would need closing too), after each of its
  /// sixel rows.
  mutating func emit(_ draws: [Draw], into out: inout ByteWriter) {
    cuts = []
    emitted = draws
    for (index, draw) in draws.enumerated() {
      guard let bytes = encoded.value(for: draw.key) else { continue }
      cuts.append(FrameCut(offset: out.count, closing: [], draw: index, rowsDrawn: 0))
      if passthrough {
        TmuxPassthrough.positioned(
          bytes, at: CellPoint(x: draw.cells.x, y: draw.cells.y), origin: origin, into: &out)
      } else {
        CursorMotion.move(from: nil, to: (draw.cells.x, draw.cells.y), into: &out)
        let start = out.count
        out.append(bytes)
        guard encoding == .sixel else { continue }
        for (row, end) in SixelEncoder.rowEnds(in: bytes).enumerated() {
          cuts.append(
            FrameCut(
              offset: start + end, closing: SixelEncoder.terminator, draw: index,
              rowsDrawn: row + 1))
        }
      }
    }
  }

  /// The last frame ended at `cut`: its draws from the cut on drew only the sixel rows before
  /// it, or nothing. Their cells that are not whole are kept as showing a preview of their
  /// image: drawn again at full detail while the image stays, wiped by the text diff if it
  /// leaves (what is on them is part of the draw, what was there, or the text's background).
  mutating func endLastFrame(at cut: FrameCut) {
    guard cut.draw >= 0, cut.draw < emitted.count else { return }
    for (index, draw) in emitted.enumerated().dropFirst(cut.draw) {
      let pixelRows = index == cut.draw ? cut.rowsDrawn * 6 : 0
      let whole = min(draw.cells.height, pixelRows / max(1, cellSize.height))
      let missing = CellRect(
        x: draw.cells.x, y: draw.cells.y + whole, width: draw.cells.width,
        height: draw.cells.height - whole)
      guard !missing.isEmpty else { continue }
      onScreen = onScreen.flatMap { fragment -> [Fragment] in
        guard fragment.identity == draw.identity else { return [fragment] }
        let partial = fragment.cells.intersection(missing)
        guard !partial.isEmpty else { return [fragment] }
        let rest = fragment.cells.subtracting(missing).map {
          Fragment(identity: fragment.identity, cells: $0, preview: fragment.preview)
        }
        return rest + [Fragment(identity: fragment.identity, cells: partial, preview: true)]
      }
    }
    cuts = []
    emitted = []
  }

  /// Sixel and iTerm2 pixels are square on the screen.
  static let pixel = PixelSize(width: 1, height: 1)

  /// Encodes the crop of `key`: from the cached whole tile (quantized for sixel, resampled for
  /// iTerm2) when it is no more pixels than the screen, else from a resample of the crop
  /// alone.
  private mutating func encode(
    _ placement: ImagePlacement, key: EncodingKey, screen: CellRect,
    statistics: inout RenderStatistics
  ) {
    let crop = key.crop
    let pixelCrop = Rect(
      x: crop.x * cellSize.width, y: crop.y * cellSize.height, width: crop.width * cellSize.width,
      height: key.pixelRows)
    let usable = Self.usable(screen)
    let screenPixels = usable.width * cellSize.width * usable.height * cellSize.height
    let imageKey = ResampleKey(
      imageID: key.imageID, pixelWidth: key.pixelWidth, pixelHeight: key.pixelHeight)
    let whole = Rect(x: 0, y: 0, width: key.pixelWidth, height: key.pixelHeight)
    let bytes: [UInt8]
    if Self.area(key.pixelWidth, key.pixelHeight) > screenPixels {
      let pixels = AreaResampler.fill(
        placement.bitmap, width: key.pixelWidth, height: key.pixelHeight, crop: pixelCrop,
        unit: Self.pixel)
      statistics.pixelsResampled += pixelCrop.width * pixelCrop.height
      bytes = payload(pixels, width: pixelCrop.width, height: pixelCrop.height, cells: crop)
    } else if encoding == .sixel {
      let paletteKey = PaletteKey(image: imageKey, preview: key.preview)
      let palette: SixelPalette
      if let cached = quantized.value(for: paletteKey) {
        palette = cached
      } else if key.preview {
        palette = SixelPreview.palette(
          of: placement.bitmap, width: key.pixelWidth, height: key.pixelHeight)
        statistics.pixelsResampled +=
          palette.indices.count / (SixelPreview.block * SixelPreview.block)
        quantized.insert(palette, for: paletteKey, cost: palette.indices.count)
      } else {
        palette = Self.palette(of: placement.bitmap, size: imageKey)
        statistics.pixelsResampled += key.pixelWidth * key.pixelHeight
        quantized.insert(palette, for: paletteKey, cost: palette.indices.count)
      }
      let part = palette.cropped(pixelCrop, width: key.pixelWidth)
      bytes = SixelEncoder.encode(part, width: pixelCrop.width, height: pixelCrop.height)
    } else {
      let pixels: [UInt8]
      if let cached = resampled.value(for: imageKey) {
        pixels = cached
      } else {
        pixels = AreaResampler.fill(
          placement.bitmap, width: key.pixelWidth, height: key.pixelHeight, crop: whole,
          unit: Self.pixel)
        statistics.pixelsResampled += key.pixelWidth * key.pixelHeight
        resampled.insert(pixels, for: imageKey, cost: pixels.count)
      }
      let part = Self.cut(pixels, width: key.pixelWidth, to: pixelCrop)
      bytes = payload(part, width: pixelCrop.width, height: pixelCrop.height, cells: crop)
    }
    encoded.insert(bytes, for: key, cost: bytes.count)
  }

  /// The full-detail palette of `bitmap` filling `size`'s pixels. O(pixels).
  static func palette(of bitmap: Bitmap, size: ResampleKey) -> SixelPalette {
    let pixels = AreaResampler.fill(
      bitmap, width: size.pixelWidth, height: size.pixelHeight,
      crop: Rect(x: 0, y: 0, width: size.pixelWidth, height: size.pixelHeight), unit: pixel)
    return SixelPalette(pixels: pixels, width: size.pixelWidth, height: size.pixelHeight)
  }

  /// The bytes that draw `width × height` RGBA pixels over `cells`.
  private func payload(_ pixels: [UInt8], width: Int, height: Int, cells: CellRect) -> [UInt8] {
    switch encoding {
    case .sixel:
      return SixelEncoder.encode(pixels, width: width, height: height)
    case .iterm2:
      return ITerm2Image.sequence(
        rgba: pixels, width: width, height: height, columns: cells.width, rows: cells.height,
        jpegQuality: ITerm2Image.photoQuality)
    }
  }

  /// The pixel rows a sixel crop `height` rows tall from `top` (tile pixels) is encoded with.
  /// Sixel paints bands of six rows, and some terminals (mlterm) paint a crop's last band
  /// whole, past the crop's last row: a crop is made a whole number of bands by taking in the
  /// tile's own rows below it (the pixels that belong there) up to `limit` (the end of the
  /// tile's visible part), or, where that is too close, by leaving its last rows out. Never
  /// drawn below the visible tile. O(1).
  static func sixelRows(top: Int, height: Int, limit: Int) -> Int {
    let height = max(1, height)
    let bands = (height + 5) / 6
    if top + bands * 6 <= limit { return bands * 6 }
    let whole = max(0, limit - top) / 6 * 6
    return whole > 0 ? min(height, whole) : min(height, max(1, limit - top))
  }

  /// The last row + 1 of the image visible in one piece from `visible` down: through the
  /// rectangles of the same image at the same place (its bands) that continue it below, over
  /// the same columns. A band's sixel may take in the rows of the band below it (the same
  /// pixels, drawn there anyway) to be whole sixel rows: without them a band of a 17-pixel
  /// cell row was drawn 12 pixels tall, and every row of tiles showed a dark line. Never into
  /// an overlay's cells or past what is visible. O(rectangles²), a tile's bands.
  static func visibleBottom(of visible: CellRect, among rectangles: [CellRect]) -> Int {
    var bottom = visible.maxY
    while let next = rectangles.first(where: {
      $0.y == bottom && $0.x == visible.x && $0.width == visible.width && $0.height > 0
    }) {
      bottom = next.maxY
    }
    return bottom
  }

  /// The `crop` of `width`-wide RGBA `pixels`, clipped to them. O(crop).
  static func cut(_ pixels: [UInt8], width: Int, to crop: Rect) -> [UInt8] {
    let height = width > 0 ? pixels.count / (width * 4) : 0
    let left = crop.x.clamped(to: 0...max(0, width))
    let top = crop.y.clamped(to: 0...max(0, height))
    let right = (crop.x + crop.width).clamped(to: left...max(left, width))
    let bottom = (crop.y + crop.height).clamped(to: top...max(top, height))
    var part: [UInt8] = []
    part.reserveCapacity((right - left) * (bottom - top) * 4)
    for row in top..<bottom {
      part.append(contentsOf: pixels[((row * width + left) * 4)..<((row * width + right) * 4)])
    }
    return part
  }

  /// The smallest rectangle of `area` whose `covered` flag is false; nil when all are.
  private static func boundingBox(of covered: [Bool], in area: CellRect) -> CellRect? {
    var left = Int.max
    var right = Int.min
    var top = Int.max
    var bottom = Int.min
    for row in 0..<area.height {
      for column in 0..<area.width where !covered[row * area.width + column] {
        left = min(left, column)
        right = max(right, column)
        top = min(top, row)
        bottom = max(bottom, row)
      }
    }
    guard left <= right else { return nil }
    return CellRect(
      x: area.x + left, y: area.y + top, width: right - left + 1, height: bottom - top + 1)
  }

  private static func anyWritten(_ cells: CellRect, _ written: (Int, Int) -> Bool) -> Bool {
    for row in cells.y..<cells.maxY {
      for column in cells.x..<cells.maxX where written(column, row) { return true }
    }
    return false
  }

  /// `width × height`, saturating: a tile 16 M cells tall has more pixels than an Int holds.
  private static func area(_ width: Int, _ height: Int) -> Int {
    let (product, overflow) = width.multipliedReportingOverflow(by: height)
    return overflow ? Int.max : product
  }

  /// Marks `rect` (on the screen) damaged.
  private static func mark(_ rect: CellRect, in damage: inout [Bool], width: Int) {
    for row in rect.y..<rect.maxY {
      for column in rect.x..<rect.maxX { damage[row * width + column] = true }
    }
  }

  /// Marks the cells of `rect` outside every one of `insides` damaged.
  /// O(cells × insides), the insides a tile's pieces (at most four per overlay).
  private static func markOutside(
    _ rect: CellRect, of insides: [CellRect], in damage: inout [Bool], width: Int
  ) {
    for row in rect.y..<rect.maxY {
      for column in rect.x..<rect.maxX
      where !insides.contains(where: { $0.contains(x: column, y: row) }) {
        damage[row * width + column] = true
      }
    }
  }
}
