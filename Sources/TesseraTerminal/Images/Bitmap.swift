/// An 8-bit RGBA image, row-major, 4 bytes per pixel, no padding. The app converts its
/// decoded images into this; the terminal module knows no image library.
public struct Bitmap: Sendable, CustomStringConvertible {
  public let width: Int
  public let height: Int
  public let pixels: [UInt8]

  /// Validates the size: throws instead of trapping on a bitmap that does not add up. Sides
  /// are 1…``TerminalLimits/maximumBitmapSide`` (the feeds' own image limit).
  public init(width: Int, height: Int, pixels: [UInt8]) throws(BitmapError) {
    let side = 1...TerminalLimits.maximumBitmapSide
    guard side.contains(width), side.contains(height) else {
      throw .invalidSize(width: width, height: height)
    }
    guard pixels.count == width * height * 4 else {
      throw .pixelCountMismatch(expected: width * height * 4, actual: pixels.count)
    }
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// A bitmap from a colour function of (x, y): for tests and benchmarks. O(width × height).
  public static func generated(
    width: Int, height: Int, _ colour: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)
  ) throws(BitmapError) -> Bitmap {
    let side = 1...TerminalLimits.maximumBitmapSide
    guard side.contains(width), side.contains(height) else {
      throw .invalidSize(width: width, height: height)
    }
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        let (r, g, b, a) = colour(x, y)
        let index = (y * width + x) * 4
        pixels[index] = r
        pixels[index + 1] = g
        pixels[index + 2] = b
        pixels[index + 3] = a
      }
    }
    return try Bitmap(width: width, height: height, pixels: pixels)
  }

  /// Whether every pixel is fully opaque. O(pixels).
  public var isOpaque: Bool {
    var index = 3
    while index < pixels.count {
      if pixels[index] != 255 { return false }
      index += 4
    }
    return true
  }

  public var description: String { "Bitmap(\(width)x\(height))" }
}

/// Why a bitmap was refused.
public enum BitmapError: Error, Hashable, Sendable, CustomStringConvertible {
  case invalidSize(width: Int, height: Int)
  case pixelCountMismatch(expected: Int, actual: Int)

  public var description: String {
    switch self {
    case .invalidSize(let width, let height):
      "an image of \(width)×\(height) pixels cannot be drawn (each side must be 1 to "
        + "\(TerminalLimits.maximumBitmapSide))"
    case .pixelCountMismatch(let expected, let actual):
      "an image's pixel data has \(actual) bytes where its size needs \(expected)"
    }
  }
}
