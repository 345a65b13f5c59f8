import Foundation
import TesseraUtilities

/// Reads sixel images back into pixels, as a terminal would paint them: for measuring an
/// encoder's fidelity (ours, or another program's output such as chafa's) and for tests.
///
/// Every `DCS … q … ST` in the bytes becomes one image; other bytes are skipped. Colours may
/// be RGB (`#n;2;r;g;b`, percentages) or DEC HLS (`#n;1;h;l;s`). An image is as large as its
/// raster attributes say or as far as it was painted, whichever is larger, within
/// ``SixelDecoderLimits``; pixels never painted are transparent (alpha 0). The bytes are not
/// trusted: every number is clamped before use and painting beyond the limits is dropped.
///
/// - Complexity: O(bytes + pixels painted × repeat counts), bounded by the limits.
package enum SixelDecoder {
  /// One decoded image: RGBA, row-major.
  package struct Image: Sendable {
    package var width: Int
    package var height: Int
    package var pixels: [UInt8]

    package init(width: Int, height: Int, pixels: [UInt8]) {
      self.width = width
      self.height = height
      self.pixels = pixels
    }
  }

  package static func decode(_ bytes: [UInt8]) -> [Image] {
    var images: [Image] = []
    var index = 0
    while index + 1 < bytes.count {
      guard bytes[index] == 0x1B, bytes[index + 1] == UInt8(ascii: "P") else {
        index += 1
        continue
      }
      // Parameters up to the `q` that starts sixel data.
      var start = index + 2
      while start < bytes.count, bytes[start] != UInt8(ascii: "q"), bytes[start] != 0x1B {
        start += 1
      }
      guard start < bytes.count, bytes[start] == UInt8(ascii: "q") else {
        index = start
        continue
      }
      var end = start + 1
      while end < bytes.count, bytes[end] != 0x1B { end += 1 }
      var canvas = Canvas()
      canvas.paint(bytes[(start + 1)..<end])
      images.append(canvas.image())
      index = end + 2
    }
    return images
  }

  /// Peak signal-to-noise ratio in dB of `decoded` against `reference` (RGBA, same size),
  /// over the RGB channels of the pixels opaque in `reference`; a pixel missing from
  /// `decoded` counts as black. Infinite when equal, nil when there is nothing to compare.
  package static func psnr(
    _ decoded: Image, reference: [UInt8], width: Int, height: Int
  )
    -> Double?
  {
    guard let error = squaredError(decoded, reference: reference, width: width, height: height),
      error.samples > 0
    else { return nil }
    return psnr(squaredError: error.sum, samples: error.samples)
  }

  /// The PSNR of a summed squared error over `samples` channel values.
  package static func psnr(squaredError: Double, samples: Int) -> Double {
    guard squaredError > 0 else { return .infinity }
    return 10 * log10(255 * 255 / (squaredError / Double(samples)))
  }

  /// The summed squared error and the number of channel values compared (see ``psnr``).
  package static func squaredError(
    _ decoded: Image, reference: [UInt8], width: Int, height: Int
  ) -> (sum: Double, samples: Int)? {
    guard width > 0, height > 0, reference.count >= width * height * 4 else { return nil }
    var sum = 0.0
    var samples = 0
    for y in 0..<height {
      for x in 0..<width {
        let offset = (y * width + x) * 4
        guard reference[offset + 3] >= 128 else { continue }
        let inside = x < decoded.width && y < decoded.height
        let other = (y * decoded.width + x) * 4
        for channel in 0..<3 {
          let value = inside ? Double(decoded.pixels[other + channel]) : 0
          let difference = value - Double(reference[offset + channel])
          sum += difference * difference
        }
        samples += 3
      }
    }
    return (sum, samples)
  }
}

/// The decoder's bounds for untrusted sixel data.
package enum SixelDecoderLimits {
  /// Widest and tallest image decoded, in pixels; painting beyond is dropped.
  package static let maximumSide = 4_096
  /// Largest number in a parameter (repeat counts, sizes, colours), clamped to it.
  package static let maximumParameter = 1_000_000
  /// Colour registers kept; a higher register number wraps into them, as on a VT340.
  package static let registers = 1_024
}

/// The pixels painted so far, grown as painting reaches further.
private struct Canvas {
  /// The painted extent (or the raster attributes' size, if larger).
  var width = 0
  var height = 0
  /// The storage's size, at least the extent.
  var storedWidth = 0
  var storedHeight = 0
  var pixels: [UInt8] = []
  var palette = [(UInt8, UInt8, UInt8)](repeating: (0, 0, 0), count: SixelDecoderLimits.registers)
  var colour = 0
  var x = 0
  var y = 0

  mutating func paint(_ data: ArraySlice<UInt8>) {
    var index = data.startIndex
    func number() -> Int {
      var value = 0
      while index < data.endIndex, (48...57).contains(data[index]) {
        value = min(SixelDecoderLimits.maximumParameter, value * 10 + Int(data[index] - 48))
        index += 1
      }
      return value
    }
    func parameters() -> [Int] {
      var values = [number()]
      while index < data.endIndex, data[index] == UInt8(ascii: ";"), values.count < 16 {
        index += 1
        values.append(number())
      }
      return values
    }
    while index < data.endIndex {
      let byte = data[index]
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        let values = parameters()
        if values.count >= 4 {
          grow(
            width: min(values[2], SixelDecoderLimits.maximumSide),
            height: min(values[3], SixelDecoderLimits.maximumSide))
        }
      case UInt8(ascii: "#"):
        index += 1
        let values = parameters()
        let register = values[0] % SixelDecoderLimits.registers
        colour = register
        if values.count >= 5 { palette[register] = Self.colour(values) }
      case UInt8(ascii: "!"):
        index += 1
        let count = number()
        guard index < data.endIndex else { return }
        let sixel = data[index]
        index += 1
        if (63...126).contains(sixel) { put(sixel - 63, count: max(1, count)) }
      case UInt8(ascii: "$"):
        x = 0
        index += 1
      case UInt8(ascii: "-"):
        x = 0
        y = min(y + 6, SixelDecoderLimits.maximumSide)
        index += 1
      case 63...126:
        put(byte - 63, count: 1)
        index += 1
      default:
        index += 1
      }
    }
  }

  /// `#n;2;r;g;b` (percentages) or `#n;1;h;l;s` (DEC HLS: hue 0 is blue).
  static func colour(_ values: [Int]) -> (UInt8, UInt8, UInt8) {
    func byte(_ percent: Double) -> UInt8 {
      UInt8(Int(clamping: percent * 2.55, to: 0...255))
    }
    if values[1] == 1 {
      let hue = Double((values[2] + 240) % 360)
      let lightness = Double(min(values[3], 100)) / 100
      let saturation = Double(min(values[4], 100)) / 100
      let chroma = (1 - abs(2 * lightness - 1)) * saturation
      let sector = hue / 60
      let second = chroma * (1 - abs(sector.truncatingRemainder(dividingBy: 2) - 1))
      let (red, green, blue): (Double, Double, Double)
      switch sector {
      case ..<1: (red, green, blue) = (chroma, second, 0)
      case ..<2: (red, green, blue) = (second, chroma, 0)
      case ..<3: (red, green, blue) = (0, chroma, second)
      case ..<4: (red, green, blue) = (0, second, chroma)
      case ..<5: (red, green, blue) = (second, 0, chroma)
      default: (red, green, blue) = (chroma, 0, second)
      }
      let offset = lightness - chroma / 2
      return (byte((red + offset) * 100), byte((green + offset) * 100), byte((blue + offset) * 100))
    }
    return (
      byte(Double(min(values[2], 100))), byte(Double(min(values[3], 100))),
      byte(Double(min(values[4], 100)))
    )
  }

  mutating func put(_ sixel: UInt8, count: Int) {
    let limit = SixelDecoderLimits.maximumSide
    let count = min(count, limit - min(x, limit))
    guard count > 0, sixel != 0 else {
      x = min(x + count, limit)
      return
    }
    var lastRow = 0
    for bit in 0..<6 where sixel & (1 << bit) != 0 { lastRow = bit }
    grow(width: x + count, height: min(y + lastRow + 1, limit))
    let (red, green, blue) = palette[colour]
    for bit in 0..<6 where sixel & (1 << bit) != 0 {
      let row = y + bit
      guard row < height else { break }
      for column in x..<(x + count) {
        let offset = (row * storedWidth + column) * 4
        pixels[offset] = red
        pixels[offset + 1] = green
        pixels[offset + 2] = blue
        pixels[offset + 3] = 255
      }
    }
    x += count
  }

  /// Makes the painted extent at least `width × height`, keeping what is painted; the storage
  /// grows geometrically, so painting column by column costs amortised O(1) per pixel.
  mutating func grow(width newWidth: Int, height newHeight: Int) {
    let limit = SixelDecoderLimits.maximumSide
    if newWidth > storedWidth || newHeight > storedHeight {
      let grownWidth =
        newWidth > storedWidth ? min(limit, max(newWidth, storedWidth * 2)) : storedWidth
      let grownHeight =
        newHeight > storedHeight ? min(limit, max(newHeight, storedHeight * 2)) : storedHeight
      var grown = [UInt8](repeating: 0, count: grownWidth * grownHeight * 4)
      for row in 0..<storedHeight {
        grown.replaceSubrange(
          (row * grownWidth * 4)..<((row * grownWidth + storedWidth) * 4),
          with: pixels[(row * storedWidth * 4)..<((row + 1) * storedWidth * 4)])
      }
      pixels = grown
      storedWidth = grownWidth
      storedHeight = grownHeight
    }
    width = max(width, newWidth)
    height = max(height, newHeight)
  }

  /// The painted extent.
  func image() -> SixelDecoder.Image {
    var cropped = [UInt8](repeating: 0, count: width * height * 4)
    for row in 0..<height {
      cropped.replaceSubrange(
        (row * width * 4)..<((row + 1) * width * 4),
        with: pixels[(row * storedWidth * 4)..<((row * storedWidth + width) * 4)])
    }
    return SixelDecoder.Image(width: width, height: height, pixels: cropped)
  }
}
