import CVipsShim
import Foundation

/// Generates real encoded images for the tests, through libvips' own savers.
enum ImageFixtures {
  /// A bitmap whose pixel at (x, y) is a known function of x and y, so a decode can be checked.
  static func gradient(width: Int, height: Int) -> [UInt8] {
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        let i = (y * width + x) * 4
        pixels[i] = UInt8(x * 255 / max(width - 1, 1))
        pixels[i + 1] = UInt8(y * 255 / max(height - 1, 1))
        pixels[i + 2] = 128
        pixels[i + 3] = 255
      }
    }
    return pixels
  }

  /// A bitmap of one colour.
  static func solid(width: Int, height: Int, rgb: (UInt8, UInt8, UInt8)) -> [UInt8] {
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    for i in stride(from: 0, to: pixels.count, by: 4) {
      pixels[i] = rgb.0
      pixels[i + 1] = rgb.1
      pixels[i + 2] = rgb.2
    }
    return pixels
  }

  struct EncodeFailed: Error { let message: String }

  static func encode(_ pixels: [UInt8], width: Int, height: Int, as suffix: String) throws -> Data {
    var out: UnsafeMutableRawPointer?
    var length = 0
    let status = pixels.withUnsafeBufferPointer {
      tessera_vips_encode($0.baseAddress, Int32(width), Int32(height), 4, suffix, &out, &length)
    }
    guard status == 0, let out else { throw EncodeFailed(message: lastError()) }
    defer { tessera_vips_free(out) }
    return Data(bytes: out, count: length)
  }

  static func lastError() -> String {
    var buffer = [CChar](repeating: 0, count: 1024)
    _ = tessera_vips_last_error(&buffer, buffer.count)
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
