import TesseraServer
import TesseraTestSupport
import Testing

/// One moment of a real terminal: its pixels (a screenshot of the X display) and its text (from
/// the terminal itself), read the way the tests' eyes do. Captions ("#ID title") come from the
/// text; each tile's image is found in the pixels next to its caption, and the id marker the
/// server painted along the image's top and left edges is decoded from them.
struct RealTerminalScreen {
  /// The terminals' default background: magenta, a colour no generated image, placeholder or
  /// bar uses, so "not background" means "a tile's image or placeholder".
  static let background = RGB(255, 0, 255)
  static let backgroundHex = "#ff00ff"
  /// The gallery's placeholder background: a photo fitted to a tile of not quite its shape
  /// (rounded to whole rows) leaves a margin of it, which is not part of the image.
  static let placeholder = RGB(28, 28, 32)

  /// 8-bit RGB pixels, row-major.
  struct Pixels: Equatable {
    let width: Int
    let height: Int
    let rgb: [UInt8]

    init(width: Int, height: Int, rgb: [UInt8]) {
      self.width = width
      self.height = height
      self.rgb = rgb
    }

    init(_ decoded: TestImages.Decoded) {
      width = decoded.width
      height = decoded.height
      var rgb = [UInt8](repeating: 0, count: width * height * 3)
      for index in 0..<(width * height) {
        rgb[index * 3] = decoded.pixels[index * 4]
        rgb[index * 3 + 1] = decoded.pixels[index * 4 + 1]
        rgb[index * 3 + 2] = decoded.pixels[index * 4 + 2]
      }
      self.rgb = rgb
    }

    /// The pixel at (`x`, `y`). A read outside the screenshot (a terminal larger than the
    /// test expected, a miscounted cell) is a failed expectation naming both sizes, and reads
    /// as the terminals' background: the test goes on to fail with its own message, and never
    /// takes the test process down with it.
    subscript(x: Int, y: Int) -> RGB {
      guard x >= 0, y >= 0, x < width, y < height else {
        let why =
          "pixel (\(x), \(y)) read outside the \(width)×\(height) screenshot: the terminal's "
          + "window or cells are larger than the test expected"
        Issue.record(Comment(rawValue: why))
        return RealTerminalScreen.background
      }
      let i = (y * width + x) * 3
      return RGB(rgb[i], rgb[i + 1], rgb[i + 2])
    }

    /// The mean colour of a `side`×`side` square from (`x`, `y`). A sixel image is dithered
    /// (its palette has no exact marker colours), so a marker is read from a small area's
    /// mean, never from one pixel. O(side²).
    func mean(x: Int, y: Int, side: Int = 4) -> RGB {
      var sums = [0, 0, 0]
      for row in y..<(y + side) {
        for column in x..<(x + side) {
          let pixel = self[column, row]
          sums[0] += Int(pixel.red)
          sums[1] += Int(pixel.green)
          sums[2] += Int(pixel.blue)
        }
      }
      let count = side * side
      return RGB(UInt8(sums[0] / count), UInt8(sums[1] / count), UInt8(sums[2] / count))
    }
  }

  /// One tile's image on screen, in screen pixels.
  struct Tile: CustomStringConvertible {
    let captionID: Int
    /// The id the pixels at the image's top-left corner say; nil for a placeholder or failure.
    let markerID: Int?
    let left: Int
    let top: Int
    let width: Int
    let height: Int
    /// The image reaches the viewport's first row: its top may be scrolled off.
    let touchesViewportTop: Bool
    /// How thick the marker's top band and left stripe read, in pixels (0 when absent).
    let topBand: Int
    let leftBand: Int

    var showsOwnImage: Bool { markerID == captionID % IdMarker.modulus }
    var description: String {
      "#\(captionID) at (\(left),\(top)) \(width)×\(height) px shows "
        + "\(markerID.map(String.init) ?? "no image"), bands top \(topBand) left \(leftBand)"
    }
  }

  let pixels: Pixels
  let text: String
  let cellWidth: Int
  let cellHeight: Int

  /// The status bar says nothing is loading and nothing is in flight. (Unlike the tmux tests'
  /// `settled`, an ellipsis is allowed: a narrow window truncates the bars with one; tiles
  /// still waiting show no marker, which the tile checks count.)
  var settled: Bool {
    text.contains("⟳ 0 in flight") && !text.contains("loading") && text.contains("✓ ")
  }

  var captions: [(x: Int, y: Int, id: Int)] { TileReader(text).captions }

  private func isBackground(_ x: Int, _ y: Int) -> Bool {
    x < 0 || y < 0 || x >= pixels.width || y >= pixels.height
      || pixels[x, y] == Self.background
  }

  /// Every tile whose caption is on screen and whose image area is found beside it.
  func tiles(_ layout: TileReader.Layout) -> [Tile] {
    let viewportTop = cellHeight
    return captions.compactMap { caption in
      var left: Int
      var top: Int
      var bottom: Int
      switch layout {
      case .tiles:
        // The image sits above its caption, from the caption's column.
        left = caption.x * cellWidth
        bottom = caption.y * cellHeight - 1
        let probe = left + cellWidth / 2
        // A sixel is whole bands of six pixel rows: one that would pass the tile's last row
        // ends up to five rows short of it, over the terminal's own background where no
        // placeholder was drawn under the image (inside tmux).
        for _ in 0..<5 where isBackground(probe, bottom) { bottom -= 1 }
        guard !isBackground(probe, bottom) else { return nil }
        top = bottom
        while top - 1 >= viewportTop, !isBackground(probe, top - 1) { top -= 1 }
      case .list:
        // The thumbnail starts at column 1 of the caption's row.
        left = cellWidth
        top = caption.y * cellHeight
        let probe = left + cellWidth / 2
        guard !isBackground(probe, top) else { return nil }
        bottom = top
        while bottom + 1 < pixels.height, !isBackground(probe, bottom + 1) { bottom += 1 }
      }
      let middle = (top + bottom) / 2
      var right = left
      while !isBackground(right + 1, middle) { right += 1 }
      // A fitted image lies inside a margin of the tile's own background on one axis, if any:
      // across its middle row first, then down its middle column.
      while left < right, pixels[left, middle] == Self.placeholder { left += 1 }
      while right > left, pixels[right, middle] == Self.placeholder { right -= 1 }
      let centre = (left + right) / 2
      while top < bottom, pixels[centre, top] == Self.placeholder { top += 1 }
      while bottom > top, pixels[centre, bottom] == Self.placeholder { bottom -= 1 }
      let width = right - left + 1
      let height = bottom - top + 1
      guard width >= 8, height >= 8 else { return nil }
      let marker = IdMarker.id(for: pixels.mean(x: left + 1, y: top + 1))
      let expected = caption.id % IdMarker.modulus
      func isMarker(_ x: Int, _ y: Int) -> Bool {
        IdMarker.id(for: pixels.mean(x: x, y: y)) == expected
      }
      // A 4-pixel window runs inward from each edge: the count of windows inside the band
      // plus the window's reach is the band's thickness (the same bias for both bands).
      let bandX = left + width * 55 / 100
      var topCount = 0
      while top + topCount + 4 <= bottom, isMarker(bandX, top + topCount) { topCount += 1 }
      let bandY = top + height * 60 / 100
      var leftCount = 0
      while left + leftCount + 4 <= right, isMarker(left + leftCount, bandY) { leftCount += 1 }
      return Tile(
        captionID: caption.id, markerID: marker, left: left, top: top, width: width,
        height: height, touchesViewportTop: top <= viewportTop,
        topBand: topCount == 0 ? 0 : topCount + 3, leftBand: leftCount == 0 ? 0 : leftCount + 3)
    }
  }
}
