import Foundation
import TesseraTestSupport
import TesseraUtilities

@testable import TesseraImages

/// Real encoded images for the tests, made by libvips' own savers.
enum Fixtures {
  static let png = TestImages.gradient(width: 64, height: 48)
  static let otherPNG = TestImages.gradient(width: 30, height: 60)
  static let jpeg = TestImages.gradient(width: 80, height: 40, as: ".jpg[Q=90]")

  static let tiff = TestImages.gradient(width: 40, height: 30, as: ".tif")

  static func url(_ name: String) -> URL {
    URL(string: "https://images.test/\(name)") ?? URL(fileURLWithPath: "/")
  }

  static func request(
    _ name: String, size: Int? = nil, priority: ImageRequest.Priority = .normal,
    policy: ImageRequest.CachePolicy = .useCache
  ) -> ImageRequest {
    ImageRequest(
      url: url(name), targetSize: size.map { PixelSize(width: $0, height: $0) },
      priority: priority, cachePolicy: policy)
  }

  static func ok(
    _ data: Data = png, type: String? = "image/png", headers: [String: String] = [:]
  )
    -> DataResponse
  {
    var all = headers
    if let type { all["Content-Type"] = type }
    return DataResponse(statusCode: 200, headers: all, data: data)
  }

  /// A PNG claiming `width`x`height` pixels that holds almost no pixel data (one stored
  /// deflate block of zeros): a decompression bomb's shape, without the bomb.
  static func pngHeader(width: UInt32, height: UInt32) -> Data {
    func bigEndian(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }
    func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
      let typed = Array(type.utf8) + body
      return bigEndian(UInt32(body.count)) + typed + bigEndian(crc32(Data(typed)))
    }
    let header = bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0]  // 8-bit RGBA
    let zeros = [UInt8](repeating: 0, count: 1000)
    let length = UInt16(zeros.count)
    let adler = UInt32(zeros.count) << 16 | 1  // Adler-32 of zeros: a = 1, b = count
    let zlib =
      [
        0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF),
        UInt8(~length >> 8),
      ]
      + zeros + bigEndian(adler)
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    return Data(signature + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", []))
  }

  private static func crc32(_ data: Data) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in data {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
    }
    return ~crc
  }
}

/// A mutable clock for the disk cache's freshness decisions.
final class TestClock: Sendable {
  private let date = Locked(Date(timeIntervalSince1970: 1_700_000_000))
  var now: Date { date.withLock { $0 } }
  func advance(_ seconds: TimeInterval) { date.withLock { $0 += seconds } }
}
