import CVipsShim
import Foundation
import TesseraUtilities

@testable import TesseraImages

/// Real encoded images for the tests, made by libvips' own savers.
enum Fixtures {
  struct EncodeFailed: Error {}

  /// A `width`x`height` image whose red grows left to right and green top to bottom.
  static func image(width: Int, height: Int, as suffix: String = ".png") -> Data {
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        let i = (y * width + x) * 4
        pixels[i] = UInt8(x * 255 / max(width - 1, 1))
        pixels[i + 1] = UInt8(y * 255 / max(height - 1, 1))
        pixels[i + 2] = 90
      }
    }
    var out: UnsafeMutableRawPointer?
    var length = 0
    let status = pixels.withUnsafeBufferPointer {
      tessera_vips_encode($0.baseAddress, Int32(width), Int32(height), 4, suffix, &out, &length)
    }
    guard status == 0, let out else { return Data() }
    defer { tessera_vips_free(out) }
    return Data(bytes: out, count: length)
  }

  static let png = image(width: 64, height: 48)
  static let otherPNG = image(width: 30, height: 60)
  static let jpeg = image(width: 80, height: 40, as: ".jpg[Q=90]")

  static let tiff = image(width: 40, height: 30, as: ".tif")

  /// A small SVG drawing: text that librsvg would render, never a photo.
  static let svg = Data(
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <svg xmlns="http://www.w3.org/2000/svg" width="64" height="48" viewBox="0 0 64 48">
      <rect width="64" height="48" fill="#c03"/>
    </svg>
    """.utf8)

  /// A one-page PDF: what poppler would render, never a photo.
  static let pdf = Data(
    """
    %PDF-1.4
    1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
    2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
    3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 64 48] >> endobj
    trailer << /Root 1 0 R >>
    %%EOF
    """.utf8)

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

  /// A fresh empty directory under the system's temporary folder.
  static func temporaryDirectory() -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("tessera-tests-\(UUID().uuidString)", isDirectory: true)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
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
