import TesseraUtilities

/// Images as sixel, drawn over the frame's cells after its text.
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
/// A tile is resampled and quantized once per pixel size (``SixelPalette``, cached), and any
/// crop of it is encoded from those indices, cached per crop: rows drawn on a scroll are
/// exactly the pixels the whole tile has, with no seam. A tile whose pixels are more than the
/// screen's (an extreme shape, a tall list row) is resampled and quantized only in its
/// visible crop, so the pixel work is bounded by the screen whatever the image.
///
/// - Complexity: O(screen cells + fragments) per frame to plan, plus the encoding of what is
///   drawn (see ``SixelEncoder``).
struct SixelLayer {
  struct EncodingKey: Hashable {
    var imageID: UInt64
    var pixelWidth: Int
    var pixelHeight: Int
    var crop: CellRect
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
  }

  /// Cells of the screen showing the part of an image that belongs there.
  struct Fragment: Hashable {
    var identity: Identity
    var cells: CellRect
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
  }

  var cellSize: PixelSize
  private var quantized = LRUCache<ResampleKey, SixelPalette>(costLimit: 32 << 20)
  private var encoded = LRUCache<EncodingKey, [UInt8]>(costLimit: 48 << 20)
  private(set) var onScreen: [Fragment] = []

  init(cellSize: PixelSize) { self.cellSize = cellSize }

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
        identity: Identity(image: image, x: placement.rect.x, y: placement.rect.y),
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
  mutating func plan(
    _ wants: [Want], base: FrameBuffer?, next: FrameBuffer, policy: ImageDrawPolicy,
    damage: inout [Bool], statistics: inout RenderStatistics
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
    var wanted: [Identity: CellRect] = [:]
    for want in shown { wanted[want.identity] = want.visible }
    var kept: [Identity: [CellRect]] = [:]
    for fragment in onScreen {
      let cells = fragment.cells.intersection(screen)
      guard !cells.isEmpty else { continue }
      guard let visible = wanted[fragment.identity] else {
        Self.mark(cells, in: &damage, width: width)
        continue
      }
      let inside = cells.intersection(visible)
      if inside != cells { Self.markOutside(cells, of: inside, in: &damage, width: width) }
      if !inside.isEmpty { kept[fragment.identity, default: []].append(inside) }
    }
    if policy == .none { statistics.imagesDeferred += wants.count }
    var draws: [Draw] = []
    var fragments: [Fragment] = []
    // Cells drawn over this frame: a placement after another one that overlaps it is drawn
    // again there, so the later stays on top.
    var painted = [Bool](repeating: false, count: damage.count)
    for want in shown {
      let visible = want.visible
      var covered = [Bool](repeating: false, count: visible.width * visible.height)
      for cells in kept[want.identity] ?? [] {
        for row in cells.y..<cells.maxY {
          for column in cells.x..<cells.maxX
          where !written(column, row) && !painted[row * width + column] {
            covered[(row - visible.y) * visible.width + column - visible.x] = true
          }
        }
      }
      guard let needed = Self.boundingBox(of: covered, in: visible) else {
        statistics.imageCacheHits += 1
        fragments.append(Fragment(identity: want.identity, cells: visible))
        continue
      }
      let identity = want.identity
      let key = EncodingKey(
        imageID: identity.image.imageID, pixelWidth: identity.image.pixelWidth,
        pixelHeight: identity.image.pixelHeight,
        crop: CellRect(
          x: needed.x - identity.x, y: needed.y - identity.y, width: needed.width,
          height: needed.height))
      if encoded.contains(key) {
        statistics.imageCacheHits += 1
      } else if policy == .all {
        encode(want.placement, key: key, screen: screen, statistics: &statistics)
        statistics.imageConversions += 1
      } else {
        // Deferred: what is already there and untouched stays; the rest shows the text.
        statistics.imagesDeferred += 1
        for cells in kept[identity] ?? [] {
          if Self.anyWritten(cells, { written($0, $1) || painted[$1 * width + $0] }) {
            Self.mark(cells, in: &damage, width: width)
          } else {
            fragments.append(Fragment(identity: identity, cells: cells))
          }
        }
        continue
      }
      draws.append(Draw(key: key, cells: needed))
      fragments.append(Fragment(identity: identity, cells: visible))
      for row in needed.y..<needed.maxY {
        for column in needed.x..<needed.maxX { painted[row * width + column] = true }
      }
    }
    onScreen = fragments
    return draws
  }

  /// Appends the cached sixel bytes of each draw at its position.
  mutating func emit(_ draws: [Draw], into out: inout ByteWriter) {
    for draw in draws {
      guard let bytes = encoded.value(for: draw.key) else { continue }
      CursorMotion.move(from: nil, to: (draw.cells.x, draw.cells.y), into: &out)
      out.append(bytes)
    }
  }

  /// Sixel pixels are square on the screen: images are fitted to their tiles, margins left
  /// transparent (the tile's own cells show there), never stretched.
  static let pixel = PixelSize(width: 1, height: 1)

  /// Encodes the crop of `key`: from the cached quantized whole image when it is no more
  /// pixels than the screen, else from a resample and palette of the crop alone.
  private mutating func encode(
    _ placement: ImagePlacement, key: EncodingKey, screen: CellRect,
    statistics: inout RenderStatistics
  ) {
    let crop = key.crop
    let pixelCrop = Rect(
      x: crop.x * cellSize.width, y: crop.y * cellSize.height, width: crop.width * cellSize.width,
      height: crop.height * cellSize.height)
    let usable = Self.usable(screen)
    let screenPixels = usable.width * cellSize.width * usable.height * cellSize.height
    guard Self.area(key.pixelWidth, key.pixelHeight) <= screenPixels else {
      let pixels = AreaResampler.fit(
        placement.bitmap, width: key.pixelWidth, height: key.pixelHeight, crop: pixelCrop,
        unit: Self.pixel)
      statistics.pixelsResampled += pixelCrop.width * pixelCrop.height
      let bytes = SixelEncoder.encode(pixels, width: pixelCrop.width, height: pixelCrop.height)
      encoded.insert(bytes, for: key, cost: bytes.count)
      return
    }
    let imageKey = ResampleKey(
      imageID: key.imageID, pixelWidth: key.pixelWidth, pixelHeight: key.pixelHeight)
    let palette: SixelPalette
    if let cached = quantized.value(for: imageKey) {
      palette = cached
    } else {
      let pixels = AreaResampler.fit(
        placement.bitmap, width: key.pixelWidth, height: key.pixelHeight,
        crop: Rect(
          x: 0, y: 0, width: key.pixelWidth, height: key.pixelHeight),
        unit: Self.pixel)
      statistics.pixelsResampled += key.pixelWidth * key.pixelHeight
      palette = SixelPalette(pixels: pixels, width: key.pixelWidth, height: key.pixelHeight)
      quantized.insert(palette, for: imageKey, cost: palette.indices.count)
    }
    let part = palette.cropped(pixelCrop, width: key.pixelWidth)
    let bytes = SixelEncoder.encode(part, width: pixelCrop.width, height: pixelCrop.height)
    encoded.insert(bytes, for: key, cost: bytes.count)
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

  /// Marks the cells of `rect` outside `inside` damaged.
  private static func markOutside(
    _ rect: CellRect, of inside: CellRect, in damage: inout [Bool], width: Int
  ) {
    for row in rect.y..<rect.maxY {
      for column in rect.x..<rect.maxX where !inside.contains(x: column, y: row) {
        damage[row * width + column] = true
      }
    }
  }
}
