import TesseraUtilities

/// Images as sixel, drawn over the frame's cells after its text.
///
/// A tile is resampled once per pixel size and encoded once per (size, visible crop), both
/// cached (LRU by bytes), so a tile that only moves costs its cached bytes. Sixel pixels are
/// not cells: when a tile leaves or moves, the cells it covered are marked damaged so the
/// text diff repaints them; when text is written inside a tile that stays, it is redrawn.
/// Images never touch the screen's last row (a sixel there scrolls some terminals).
///
/// A tile whose pixels are no more than the screen's is resampled whole (and cached, so a
/// tile that scrolls in costs one resample); a larger one (an extreme shape, a tall list row)
/// only in its visible crop, so the pixel work is bounded by the screen whatever the image.
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

  struct Draw: Hashable {
    var key: EncodingKey
    var visible: CellRect
  }

  var cellSize: PixelSize
  private var resampled = LRUCache<ResampleKey, [UInt8]>(costLimit: 96 << 20)
  private var encoded = LRUCache<EncodingKey, [UInt8]>(costLimit: 48 << 20)
  private var drawn: Set<Draw> = []

  init(cellSize: PixelSize) { self.cellSize = cellSize }

  mutating func screenCleared() { drawn.removeAll() }

  /// This frame's draws, allowed by `policy`.
  mutating func plan(
    _ placements: [ImagePlacement], screen: CellRect, policy: ImageDrawPolicy,
    statistics: inout RenderStatistics
  ) -> [Draw] {
    let usable = CellRect(x: 0, y: 0, width: screen.width, height: max(0, screen.height - 1))
    let screenPixels = usable.width * cellSize.width * usable.height * cellSize.height
    var draws: [Draw] = []
    for placement in placements {
      guard let visible = placement.visible(in: usable) else { continue }
      let crop = CellRect(
        x: visible.x - placement.rect.x, y: visible.y - placement.rect.y,
        width: visible.width, height: visible.height)
      let key = EncodingKey(
        imageID: placement.imageID, pixelWidth: placement.rect.width * cellSize.width,
        pixelHeight: placement.rect.height * cellSize.height, crop: crop)
      switch policy {
      case .none:
        statistics.imagesDeferred += 1
        continue
      case .cachedOnly where !encoded.contains(key):
        statistics.imagesDeferred += 1
        continue
      default:
        if encoded.value(for: key) != nil {
          statistics.imageCacheHits += 1
        } else {
          encode(
            placement, key: key,
            whole: Self.area(key.pixelWidth, key.pixelHeight) <= screenPixels,
            statistics: &statistics)
          statistics.imageConversions += 1
        }
      }
      draws.append(Draw(key: key, visible: visible))
    }
    return draws
  }

  /// Marks the cells of tiles that left or moved as damaged; returns the draws to emit
  /// (new, moved, or overwritten by this frame's text).
  mutating func damage(
    for draws: [Draw], previous: FrameBuffer?, next: FrameBuffer, damage: inout [Bool]
  ) -> [Draw] {
    let current = Set(draws)
    for old in drawn where !current.contains(old) {
      mark(old.visible, in: &damage, width: next.width, height: next.height)
    }
    var emit: [Draw] = []
    for draw in draws {
      if drawn.contains(draw), let previous,
        !Self.isDamaged(draw.visible, damage, width: next.width),
        !Self.textChanged(in: draw.visible, previous, next)
      {
        continue
      }
      emit.append(draw)
    }
    drawn = current
    return emit
  }

  /// Appends the cached sixel bytes of each draw at its position.
  mutating func emit(_ draws: [Draw], into out: inout ByteWriter) {
    for draw in draws {
      guard let bytes = encoded.value(for: draw.key) else { continue }
      CursorMotion.move(from: nil, to: (draw.visible.x, draw.visible.y), into: &out)
      out.append(bytes)
    }
  }

  /// Encodes the crop of `key`; from a cached whole resample when `whole`, else from a
  /// resample of the crop alone.
  private mutating func encode(
    _ placement: ImagePlacement, key: EncodingKey, whole: Bool,
    statistics: inout RenderStatistics
  ) {
    let crop = key.crop
    let cropX = crop.x * cellSize.width
    let cropY = crop.y * cellSize.height
    let width = crop.width * cellSize.width
    let height = crop.height * cellSize.height
    guard whole else {
      let pixels = AreaResampler.resample(
        placement.bitmap, width: key.pixelWidth, height: key.pixelHeight,
        crop: AreaResampler.PixelRect(x: cropX, y: cropY, width: width, height: height))
      statistics.pixelsResampled += width * height
      let bytes = SixelEncoder.encode(pixels, width: width, height: height)
      encoded.insert(bytes, for: key, cost: bytes.count)
      return
    }
    let resampleKey = ResampleKey(
      imageID: key.imageID, pixelWidth: key.pixelWidth, pixelHeight: key.pixelHeight)
    let pixels: [UInt8]
    if let cached = resampled.value(for: resampleKey) {
      pixels = cached
    } else {
      pixels = AreaResampler.resample(
        placement.bitmap, width: key.pixelWidth, height: key.pixelHeight)
      statistics.pixelsResampled += key.pixelWidth * key.pixelHeight
      resampled.insert(pixels, for: resampleKey, cost: pixels.count)
    }
    let bytes: [UInt8]
    if crop.x == 0, crop.y == 0, width == key.pixelWidth, height == key.pixelHeight {
      bytes = SixelEncoder.encode(pixels, width: width, height: height)
    } else {
      var cropped = [UInt8](repeating: 0, count: width * height * 4)
      for row in 0..<height {
        let from = ((cropY + row) * key.pixelWidth + cropX) * 4
        cropped.replaceSubrange(
          (row * width * 4)..<((row + 1) * width * 4), with: pixels[from..<(from + width * 4)])
      }
      bytes = SixelEncoder.encode(cropped, width: width, height: height)
    }
    encoded.insert(bytes, for: key, cost: bytes.count)
  }

  /// `width × height`, saturating: a tile 16 M cells tall has more pixels than an Int holds.
  private static func area(_ width: Int, _ height: Int) -> Int {
    let (product, overflow) = width.multipliedReportingOverflow(by: height)
    return overflow ? Int.max : product
  }

  private func mark(_ rect: CellRect, in damage: inout [Bool], width: Int, height: Int) {
    let area = rect.intersection(CellRect(x: 0, y: 0, width: width, height: height))
    guard !area.isEmpty else { return }
    for row in area.y..<area.maxY {
      for column in area.x..<area.maxX { damage[row * width + column] = true }
    }
  }

  private static func isDamaged(_ rect: CellRect, _ damage: [Bool], width: Int) -> Bool {
    for row in rect.y..<rect.maxY {
      for column in rect.x..<rect.maxX where damage[row * width + column] { return true }
    }
    return false
  }

  private static func textChanged(
    in rect: CellRect, _ previous: FrameBuffer, _ next: FrameBuffer
  )
    -> Bool
  {
    guard previous.width == next.width, previous.height == next.height else { return true }
    for row in rect.y..<rect.maxY {
      for column in rect.x..<rect.maxX where previous[column, row] != next[column, row] {
        return true
      }
    }
    return false
  }
}
