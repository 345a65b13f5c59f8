import Foundation
import TesseraImages

/// Photo-like JPEGs for the benchmark: smooth colour fields under per-pixel grain (a seeded
/// generator, so every run times the same bytes), 2400×1600 at quality 88, as a phone's
/// smaller photos are. Flat pictures would decode far faster than photos do.
enum BenchPhotos {
  static func make(count: Int, into folder: URL) throws -> [URL] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> UInt64 {  // SplitMix64
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    let width = 2400
    let height = 1600
    return try (0..<count).map { index in
      let tint = (Int(next() % 120), Int(next() % 120), Int(next() % 120))
      var pixels = [UInt8](repeating: 255, count: width * height * 4)
      for y in 0..<height {
        for x in 0..<width {
          let grain = Int(next() % 24)
          let at = (y * width + x) * 4
          pixels[at] = UInt8(min(255, tint.0 + x * 100 / width + grain))
          pixels[at + 1] = UInt8(min(255, tint.1 + y * 100 / height + grain))
          pixels[at + 2] = UInt8(min(255, tint.2 + (x + y) * 60 / (width + height) + grain))
        }
      }
      let image = try Image(
        width: width, height: height, pixels: pixels,
        originalSize: PixelSize(width: width, height: height))
      let url = folder.appendingPathComponent("photo-\(index).jpg")
      try ImageEncoder.encode(image, as: .jpeg(quality: 88)).write(to: url)
      return url
    }
  }
}
