/// An image the app wants on screen this frame.
public struct ImagePlacement: Sendable, CustomStringConvertible {
  /// The app's stable id for these pixels: the same id must always mean the same bitmap
  /// (e.g. a hash of the request and its target size). Caches and uploads are keyed by it.
  public var imageID: UInt64
  public var bitmap: Bitmap
  /// Where the whole image goes, in cells; may hang off the screen or the clip.
  public var rect: CellRect
  /// The part of the screen it may show in (a viewport); nil for the whole screen.
  public var clip: CellRect?
  /// Its frames, when the terminal plays them itself (``TerminalRenderer/playsAnimations``);
  /// elsewhere only ``bitmap`` shows, and the app draws each frame as an image of its own.
  public var animation: ImageAnimation?

  public init(
    imageID: UInt64, bitmap: Bitmap, rect: CellRect, clip: CellRect? = nil,
    animation: ImageAnimation? = nil
  ) {
    self.imageID = imageID
    self.bitmap = bitmap
    self.rect = rect
    self.clip = clip
    self.animation = animation
  }

  /// The cells actually shown, within `screen`; nil when none are, or when the rectangle is
  /// beyond ``TerminalLimits/maximumPlacementSide`` (no layout makes one; the pixel
  /// arithmetic after it must not overflow).
  func visible(in screen: CellRect) -> CellRect? {
    let side = TerminalLimits.maximumPlacementSide
    guard rect.width <= side, rect.height <= side else { return nil }
    let area = rect.intersection(clip ?? screen).intersection(screen)
    return area.isEmpty ? nil : area
  }

  /// The visible part `visible` in the image's own cells (from its top-left).
  func crop(of visible: CellRect) -> CellRect {
    CellRect(
      x: visible.x - rect.x, y: visible.y - rect.y, width: visible.width, height: visible.height)
  }

  /// This placement cut around `occluders`: one placement per rectangle of its visible area
  /// (its clip, or its rectangle) that none of them covers, each clipped to it; none when they
  /// cover it all. Every layer already draws a clipped placement, so an overlay's box shows
  /// no image in any protocol. O(pieces × occluders); at most 4 pieces per occluder.
  func pieces(around occluders: [CellRect]) -> [ImagePlacement] {
    var areas = [clip.map { $0.intersection(rect) } ?? rect]
    for occluder in occluders {
      areas = areas.flatMap { $0.subtracting(occluder) }
    }
    return areas.map { area in
      var piece = self
      piece.clip = area
      return piece
    }
  }

  /// This placement's visible area (its clip, or its rectangle) cut into horizontal bands of
  /// `rows` cell rows, counted from the image's top so a band stays the same band however
  /// the clip moves; itself when it is no taller. O(bands).
  func bands(of rows: Int) -> [ImagePlacement] {
    let area = clip.map { $0.intersection(rect) } ?? rect
    guard rows > 0, area.height > rows else { return [self] }
    var bands: [ImagePlacement] = []
    var top = rect.y + (area.y - rect.y) / rows * rows
    while top < area.maxY {
      let from = max(top, area.y)
      let to = min(top + rows, area.maxY)
      var band = self
      band.clip = CellRect(x: area.x, y: from, width: area.width, height: to - from)
      bands.append(band)
      top += rows
    }
    return bands
  }

  /// This placement's visible area cut into `count` pieces side by side, counted from the
  /// image's left so a piece stays the same piece however the clip moves; itself when
  /// `count` is 1 or the image is narrower. O(count).
  func columns(_ count: Int) -> [ImagePlacement] {
    let area = clip.map { $0.intersection(rect) } ?? rect
    guard count > 1, rect.width >= count else { return [self] }
    return (0..<count).compactMap { index in
      let from = max(area.x, rect.x + rect.width * index / count)
      let to = min(area.maxX, rect.x + rect.width * (index + 1) / count)
      guard from < to else { return nil }
      var piece = self
      piece.clip = CellRect(x: from, y: area.y, width: to - from, height: area.height)
      return piece
    }
  }

  public var description: String { "image \(imageID) at \(rect)" }
}

/// How much image output a frame may carry. During a fast fling the app asks for less, as
/// yazi does, so scrolling never waits on image bytes; a tile without its image shows
/// whatever the app drew in its cells (its placeholder), in the same place.
public enum ImageDrawPolicy: Sendable, Hashable {
  /// Draw every image, converting, encoding or uploading what is needed.
  case all
  /// Draw only what costs no conversion or upload: images already uploaded (kitty), already
  /// encoded for this size and crop (sixel) or converted (blocks).
  case cachedOnly
  /// For a link that cannot keep up during a fling: kitty uploads what is not on the
  /// terminal yet at a fifth of the resolution per side (`KittyLayer.previewScale`) and shows it,
  /// sixel draws it as a coarse preview (``SixelPreview``); the next `.all` frame
  /// replaces each preview with full detail. Blocks and iTerm2 draw what is cached here (as
  /// `.cachedOnly`).
  case preview
  /// For the first screen over a slow link (SSH) to kitty or a sixel terminal: while any
  /// image shown has nothing on the terminal, as `.preview` (a picture on every tile first);
  /// once every one has, as `.all`, which replaces the previews with full detail. Layers that
  /// send no previews draw as `.all`.
  case previewsFirst
  /// Draw no image: placeholders everywhere (kitty placements are hidden, not freed).
  case none
}

/// How images reach the screen.
public enum GraphicsProtocol: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// The kitty graphics protocol (Unicode placeholders inside tmux).
  case kitty
  /// DEC sixel.
  case sixel
  /// iTerm2's inline images (OSC 1337): a tile's own JPEG or PNG bytes, in iTerm2, WezTerm,
  /// VS Code's terminal and Konsole.
  case iterm2
  /// Half-block character cells with 24-bit colour: works everywhere, tmux and CI included.
  case blocks

  public var description: String { rawValue }
}
