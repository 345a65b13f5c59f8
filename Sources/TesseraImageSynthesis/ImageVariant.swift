import TesseraUtilities

/// The sizes generated photos come in: Flickr's suffixes plus `o`, the original (2–12 MP).
///
/// Dimensions are a pure function of (seed, id, variant): O(1).
package enum ImageVariant: String, CaseIterable, Sendable {
  case s, q, t, m, n, w
  case medium = ""
  case z, c, b, h, k, o

  /// Longest edge in pixels (the side, for squares); nil for the original.
  package var longestEdge: Int? {
    switch self {
    case .s: 75
    case .q: 150
    case .t: 100
    case .m: 240
    case .n: 320
    case .w: 400
    case .medium: 500
    case .z: 640
    case .c: 800
    case .b: 1024
    case .h: 1600
    case .k: 2048
    case .o: nil
    }
  }

  package var isSquare: Bool { self == .s || self == .q }

  /// Aspect ratios from tall 1:2 to wide 2:1, the shapes photos come in.
  package static let aspects: [Double] = [
    1 / 2, 9 / 16, 2 / 3, 3 / 4, 4 / 5, 1, 5 / 4, 4 / 3, 3 / 2, 16 / 9, 2,
  ]
  package static let maxOriginalPixels = 12_000_000

  /// The original's size: a seeded aspect and 2–12 megapixels.
  package static func originalSize(id: Int, seed: UInt64) -> PixelSize {
    var random = SplitMix64(seed: seed, 0x0516, UInt64(bitPattern: Int64(id)))
    let aspect = random.pick(aspects)
    let pixels = 2_000_000 + random.unit() * 10_000_000
    let sides = 1...maxOriginalPixels
    var width = Int(clamping: (pixels * aspect).squareRoot().rounded(.towardZero), to: sides)
    var height = Int(clamping: Double(width) / aspect, to: sides)
    while width * height > maxOriginalPixels {
      width -= 1
      height = Int(clamping: Double(width) / aspect, to: sides)
    }
    return PixelSize(width: max(1, width), height: max(1, height))
  }

  /// This variant's size for image `id`: the original scaled to fit the longest edge (never
  /// up), or a centred square.
  package func size(id: Int, seed: UInt64) -> PixelSize {
    let original = Self.originalSize(id: id, seed: seed)
    guard let edge = longestEdge else { return original }
    if isSquare {
      let side = min(edge, original.width, original.height)
      return PixelSize(width: side, height: side)
    }
    let longest = max(original.width, original.height)
    guard longest > edge else { return original }
    let scale = Double(edge) / Double(longest)
    return PixelSize(
      width: Int(clamping: Double(original.width) * scale, to: 1...edge),
      height: Int(clamping: Double(original.height) * scale, to: 1...edge))
  }
}

/// The encodings generated photos come in.
public enum ImageFormat: String, CaseIterable, Sendable {
  /// JPEG, quality 85: most photos, as on Flickr.
  case jpeg = "jpg"
  /// PNG.
  case png
  /// WebP, quality 80.
  case webp

  /// The format a file extension names ("jpg", "jpeg", "png", "webp", any case); nil for others.
  package init?(fileExtension: String) {
    switch fileExtension.lowercased() {
    case "jpg", "jpeg": self = .jpeg
    case "png": self = .png
    case "webp": self = .webp
    default: return nil
    }
  }

  /// The MIME type, e.g. "image/jpeg".
  public var contentType: String {
    switch self {
    case .jpeg: "image/jpeg"
    case .png: "image/png"
    case .webp: "image/webp"
    }
  }

  /// libvips' saver and options.
  var vipsSuffix: String {
    switch self {
    case .jpeg: ".jpg[Q=85,strip]"
    case .png: ".png[compression=6,strip]"
    case .webp: ".webp[Q=80,strip]"
    }
  }
}
