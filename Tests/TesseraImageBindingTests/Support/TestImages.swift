import Foundation
import TesseraImages

/// Real PNG images whose width tells which item they belong to: item `pN` is 8 + N pixels
/// wide and 8 tall, so a decoded image (at its original size) names its item.
enum TestImages {
  /// The URL of item `id`'s image.
  static func url(_ id: String) -> URL {
    URL(string: "https://images.test/\(id).png") ?? URL(fileURLWithPath: "/")
  }

  /// The request a cell or a prefetch makes for item `id` (original size, so the width
  /// survives decoding).
  static func request(_ id: String, priority: ImageRequest.Priority = .normal) -> ImageRequest {
    ImageRequest(url: url(id), priority: priority)
  }

  /// The width of item `id`'s image: 8 + the number after its letter.
  static func width(of id: String) -> Int { 8 + (Int(id.dropFirst()) ?? 0) }

  /// The item an image belongs to, read from its width.
  static func item(of image: Image, prefix: String = "p") -> String {
    "\(prefix)\(image.originalSize.width - 8)"
  }

  /// A 200 answer carrying the PNG for the URL named `name` ("p3.png").
  static func response(for name: String) -> DataResponse {
    let id = String(name.split(separator: ".").first ?? "")
    return DataResponse(
      statusCode: 200, headers: ["Content-Type": "image/png"],
      data: png(width: width(of: id), height: 8))
  }

  /// An uncompressed (stored-deflate) grey RGB PNG.
  static func png(width: Int, height: Int) -> Data {
    var raw: [UInt8] = []
    for _ in 0..<height {
      raw.append(0)  // filter: none
      raw.append(contentsOf: [UInt8](repeating: 128, count: width * 3))
    }
    var zlib: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
      let count = min(65_535, raw.count - offset)
      let final: UInt8 = offset + count == raw.count ? 1 : 0
      let length = UInt16(count)
      zlib += [final, UInt8(length & 0xFF), UInt8(length >> 8)]
      zlib += [UInt8(~length & 0xFF), UInt8(~length >> 8)]
      zlib += raw[offset..<(offset + count)]
      offset += count
    } while offset < raw.count
    zlib += bigEndian(adler32(raw))
    let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0]
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    return Data(signature + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", []))
  }

  private static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + body
    return bigEndian(UInt32(body.count)) + typed + bigEndian(crc32(typed))
  }

  private static func bigEndian(_ value: UInt32) -> [UInt8] {
    withUnsafeBytes(of: value.bigEndian, Array.init)
  }

  private static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
    }
    return ~crc
  }

  private static func adler32(_ bytes: [UInt8]) -> UInt32 {
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in bytes {
      a = (a + UInt32(byte)) % 65_521
      b = (b + a) % 65_521
    }
    return b << 16 | a
  }
}

/// A pipeline over `loader`, with a memory cache, no disk cache, and room for every download
/// of a test at once. Its download deadline (real time) is an hour, so a machine busy with
/// other suites on the main actor never turns a held download into a timeout: time here is
/// what the test releases, nothing else.
func makePipeline(_ loader: HeldDataLoader) -> ImagePipeline {
  ImagePipeline(
    configuration: .init(
      dataLoader: loader, memoryCache: MemoryCache(costLimit: 16 << 20), diskCache: nil,
      maxConcurrentDownloads: 64, maxConcurrentDecodes: 2, requestTimeout: 3_600))
}
