import TesseraUtilities

/// The pixel arithmetic behind kitty placements: kitty scales whatever part of an image a
/// placement shows (`x,y,w,h`, or the whole upload) to fill its `c × r` cells exactly, so a
/// part whose pixel aspect differs from the cells' is drawn stretched. Everything here keeps
/// the two equal: an upload is the centre of the bitmap cropped to the tile's pixel aspect
/// (as a grid's aspect-fill does), and a placement shows a part of the upload with its cells'
/// aspect. Crop, never stretch: a tile that is a fraction of a cell off its photo's shape
/// loses that fraction at the edges instead of distorting the whole picture.
///
/// Sides are clamped before they are multiplied (a placement side is at most
/// ``TerminalLimits/maximumPlacementSide`` cells, a cell at most 512 px, a bitmap side at most
/// 65,535 px), so no product here can overflow. All functions are O(1).
enum KittyGeometry {
  /// A rectangle in an image's pixels.
  typealias Rect = KittyCommands.SourceRect

  /// The pixel box `columns × rows` cells cover (each side at least 1).
  static func box(columns: Int, rows: Int, cell: PixelSize) -> PixelSize {
    let side = 1...TerminalLimits.maximumPlacementSide
    let cellSide = TerminalLimits.cellPixelRange
    return PixelSize(
      width: columns.clamped(to: side) * cell.width.clamped(to: cellSide),
      height: rows.clamped(to: side) * cell.height.clamped(to: cellSide))
  }

  /// The largest centred part of an image of `size` whose aspect is `box`'s (at least 1×1).
  static func fillCrop(of size: PixelSize, toAspectOf box: PixelSize) -> Rect {
    let width = max(1, size.width)
    let height = max(1, size.height)
    let boxWidth = max(1, box.width)
    let boxHeight = max(1, box.height)
    // Compare width/height with boxWidth/boxHeight without division: all sides ≤ 2^33.
    if width * boxHeight > height * boxWidth {
      // Wider than the box: keep the full height, cut the sides.
      let kept = max(1, min(width, (height * boxWidth + boxHeight / 2) / boxHeight))
      return Rect(x: (width - kept) / 2, y: 0, width: kept, height: height)
    }
    let kept = max(1, min(height, (width * boxHeight + boxWidth / 2) / boxWidth))
    return Rect(x: 0, y: (height - kept) / 2, width: width, height: kept)
  }

  /// The size to upload a crop of `crop` pixels at for a tile of `box` pixels: the crop,
  /// scaled down (never up, both sides by the same factor) to no more than the box, then by
  /// `scale` (0 < scale ≤ 1: a low-resolution preview). Pixels beyond the tile's are bytes
  /// for nothing: kitty scales the upload to the cells anyway.
  static func uploadSize(crop: PixelSize, box: PixelSize, scale: Double = 1) -> PixelSize {
    let width = max(1, crop.width)
    let height = max(1, crop.height)
    var factor = min(1, Double(max(1, box.width)) / Double(width))
    factor = min(factor, Double(max(1, box.height)) / Double(height))
    factor *= scale.isFinite ? min(1, max(0.01, scale)) : 1
    return PixelSize(
      width: Int(clamping: (Double(width) * factor).rounded(), to: 1...width),
      height: Int(clamping: (Double(height) * factor).rounded(), to: 1...height))
  }

  /// The part of an upload of `upload` pixels a placement shows: the upload's centre at the
  /// tile's aspect (the whole upload when it was made for this tile's shape), narrowed to
  /// the visible cells `visible` of a tile `columns × rows` cells large (in tile cells, from
  /// its top-left). Nil when that is the whole upload.
  static func source(
    upload: PixelSize, columns: Int, rows: Int, cell: PixelSize, visible: CellRect
  ) -> Rect? {
    let box = box(columns: columns, rows: rows, cell: cell)
    var shown = fillCrop(of: upload, toAspectOf: box)
    // Within a pixel of the whole upload is the whole upload: the tile's aspect in whole
    // pixels can be no closer.
    if abs(shown.width - upload.width) <= 1, abs(shown.height - upload.height) <= 1 {
      shown = Rect(x: 0, y: 0, width: upload.width, height: upload.height)
    }
    let columns = max(1, columns)
    let rows = max(1, rows)
    let left = visible.x.clamped(to: 0...columns)
    let top = visible.y.clamped(to: 0...rows)
    let right = (visible.x + visible.width).clamped(to: left...columns)
    let bottom = (visible.y + visible.height).clamped(to: top...rows)
    let x = shown.x + left * shown.width / columns
    let y = shown.y + top * shown.height / rows
    let result = Rect(
      x: x, y: y, width: max(1, shown.x + right * shown.width / columns - x),
      height: max(1, shown.y + bottom * shown.height / rows - y))
    let whole = Rect(x: 0, y: 0, width: upload.width, height: upload.height)
    return result == whole ? nil : result
  }

  /// The pixels of `crop` of `bitmap` (copied rows; the bitmap itself when the crop is whole).
  /// O(crop pixels).
  static func cropped(_ bitmap: Bitmap, to crop: Rect) -> Bitmap {
    let x = crop.x.clamped(to: 0...(bitmap.width - 1))
    let y = crop.y.clamped(to: 0...(bitmap.height - 1))
    let width = crop.width.clamped(to: 1...(bitmap.width - x))
    let height = crop.height.clamped(to: 1...(bitmap.height - y))
    if width == bitmap.width, height == bitmap.height { return bitmap }
    var pixels = [UInt8]()
    pixels.reserveCapacity(width * height * 4)
    for row in y..<(y + height) {
      let start = (row * bitmap.width + x) * 4
      pixels.append(contentsOf: bitmap.pixels[start..<(start + width * 4)])
    }
    return (try? Bitmap(width: width, height: height, pixels: pixels)) ?? bitmap
  }
}
