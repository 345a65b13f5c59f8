import TesseraUtilities

/// Paints the picture of one generated image as 8-bit RGB: a gradient with a few discs and
/// panels, the id in large digits on a dark plate, and the `IdMarker` colour along the top and
/// down the left edge, as thick as the band. The left stripe is for centre crops: a tall image
/// cropped into a square tile loses its top, never its left edge, and a wide one keeps its top;
/// so a tile's top-left corner always shows the marker.
///
/// The scene is defined in coordinates relative to the canvas, so every size of an id shows the
/// same picture. Every body colour keeps one channel on an `IdMarker` midpoint, so nothing
/// below the band reads as a marker. O(width × height).
package struct ImagePainter {
  let id: Int
  let seed: UInt64
  let width: Int
  let height: Int

  /// The plate behind the digits and the digits themselves: every channel on a midpoint.
  package static let plate = RGB(32, 32, 32)
  package static let digitInk = RGB(224, 224, 224)

  var bandHeight: Int {
    Int(clamping: (Double(height) * IdMarker.bandFraction).rounded(.up), to: 1...max(1, height))
  }

  func paint() -> [UInt8] {
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    var random = SplitMix64(seed: seed, 0x9A17, UInt64(bitPattern: Int64(id)))
    let fixedChannel = Int(random.next() % 3)
    let fixedValue = random.pick(IdMarker.midpoints)
    pixels.withUnsafeMutableBufferPointer { buffer in
      paintGradient(buffer, &random, fixedChannel, fixedValue)
      paintShapes(buffer, &random, fixedChannel, fixedValue)
      paintDigits(buffer)
      fill(buffer, x: 0..<width, y: 0..<bandHeight, IdMarker.color(for: id))
      fill(buffer, x: 0..<min(width, bandHeight), y: 0..<height, IdMarker.color(for: id))
    }
    return pixels
  }

  /// Two free channels vary linearly across the canvas; the third stays on `fixedValue`.
  private func paintGradient(
    _ buffer: UnsafeMutableBufferPointer<UInt8>, _ random: inout SplitMix64,
    _ fixedChannel: Int, _ fixedValue: UInt8
  ) {
    let free = [0, 1, 2].filter { $0 != fixedChannel }
    let start = (40 + random.unit() * 180, 40 + random.unit() * 180)
    let end = (40 + random.unit() * 180, 40 + random.unit() * 180)
    let diagonal = random.unit() < 0.5
    let w = Double(max(1, width - 1))
    let h = Double(max(1, height - 1))
    for y in 0..<height {
      let ty = Double(y) / h
      let row = y * width * 3
      for x in 0..<width {
        let tx = Double(x) / w
        let t1 = diagonal ? (tx + ty) / 2 : tx
        let t2 = diagonal ? ty : (1 - tx + ty) / 2
        let offset = row + x * 3
        buffer[offset + fixedChannel] = fixedValue
        buffer[offset + free[0]] = UInt8(start.0 + (end.0 - start.0) * t1)
        buffer[offset + free[1]] = UInt8(start.1 + (end.1 - start.1) * t2)
      }
    }
  }

  /// A few discs and panels in colours sharing the fixed channel.
  private func paintShapes(
    _ buffer: UnsafeMutableBufferPointer<UInt8>, _ random: inout SplitMix64,
    _ fixedChannel: Int, _ fixedValue: UInt8
  ) {
    let unit = Double(min(width, height))
    let discs = 3 + Int(random.next() % 4)
    for _ in 0..<discs {
      let colour = shapeColour(&random, fixedChannel, fixedValue)
      let cx = random.unit() * Double(width)
      let cy = random.unit() * Double(height)
      let radius = (0.08 + random.unit() * 0.22) * unit
      let rows = whole(cy - radius, 0...height)..<whole(cy + radius + 1, 0...height)
      for y in rows {
        let dy = Double(y) - cy
        let half = (radius * radius - dy * dy).squareRoot()
        guard half.isFinite else { continue }
        fill(
          buffer, x: whole(cx - half, 0...width)..<whole(cx + half + 1, 0...width),
          y: y..<(y + 1), colour)
      }
    }
    let panels = 1 + Int(random.next() % 3)
    for _ in 0..<panels {
      let colour = shapeColour(&random, fixedChannel, fixedValue)
      let x0 = whole(random.unit() * Double(width), 0...width)
      let y0 = whole(random.unit() * Double(height), 0...height)
      let x1 = x0 + whole((0.1 + random.unit() * 0.3) * Double(width), 0...width)
      let y1 = y0 + whole((0.05 + random.unit() * 0.15) * Double(height), 0...height)
      fill(buffer, x: x0..<clamp(x1, width), y: y0..<clamp(y1, height), colour)
    }
  }

  private func shapeColour(
    _ random: inout SplitMix64, _ fixedChannel: Int, _ fixedValue: UInt8
  ) -> RGB {
    var channels = [UInt8(40 + random.next() % 180), UInt8(40 + random.next() % 180)]
    channels.insert(fixedValue, at: fixedChannel)
    return RGB(channels[0], channels[1], channels[2])
  }

  /// The id in digits on a dark plate, centred below the band, as large as fits comfortably.
  private func paintDigits(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
    let digits = String(id.magnitude).compactMap(\.wholeNumberValue)
    let plateUnits = (
      width: DigitFont.width(of: digits.count) + 4, height: DigitFont.glyphHeight + 4
    )
    let bodyTop = bandHeight
    let bodyHeight = height - bodyTop
    let fit = min(
      Double(width) * 0.7 / Double(plateUnits.width),
      Double(bodyHeight) * 0.45 / Double(plateUnits.height))
    let scale = whole(fit, 1...max(1, width))
    let plateWidth = plateUnits.width * scale
    let plateHeight = plateUnits.height * scale
    let left = (width - plateWidth) / 2
    let top = bodyTop + (bodyHeight - plateHeight) / 2
    fill(
      buffer, x: clamp(left, width)..<clamp(left + plateWidth, width),
      y: clamp(top, height)..<clamp(top + plateHeight, height), Self.plate)
    for (position, digit) in digits.enumerated() {
      let glyphLeft = left + (2 + position * DigitFont.advance) * scale
      for row in 0..<DigitFont.glyphHeight {
        for column in 0..<DigitFont.glyphWidth where DigitFont.ink(digit, column: column, row: row)
        {
          let x = glyphLeft + column * scale
          let y = top + (2 + row) * scale
          fill(
            buffer, x: clamp(x, width)..<clamp(x + scale, width),
            y: clamp(y, height)..<clamp(y + scale, height), Self.digitInk)
        }
      }
    }
  }

  private func clamp(_ value: Int, _ limit: Int) -> Int { min(max(0, value), limit) }

  /// `value` truncated toward zero (as `Int(_:)` does) and clamped into `range`.
  private func whole(_ value: Double, _ range: ClosedRange<Int>) -> Int {
    Int(clamping: value.rounded(.towardZero), to: range)
  }

  private func fill(
    _ buffer: UnsafeMutableBufferPointer<UInt8>, x: Range<Int>, y: Range<Int>, _ colour: RGB
  ) {
    guard !x.isEmpty else { return }
    for row in y {
      var offset = (row * width + x.lowerBound) * 3
      for _ in x {
        buffer[offset] = colour.red
        buffer[offset + 1] = colour.green
        buffer[offset + 2] = colour.blue
        offset += 3
      }
    }
  }
}
