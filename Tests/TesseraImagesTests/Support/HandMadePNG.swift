import Foundation

/// A PNG writer and text-chunk reader written here from the PNG specification, sharing no
/// code with Tessera: the "independent program" of the thumbnail interop tests. The writer
/// stores its pixels in uncompressed deflate blocks (legal zlib, no compressor needed).
enum HandMadePNG {
  /// How text is stored: plain (tEXt), or deflated (zTXt, or iTXt with its compression flag).
  enum TextChunk: String, Sendable, CaseIterable {
    case tEXt, zTXt, compressedITXt
  }

  /// An RGB PNG of one colour with `text` as `kind` chunks.
  static func solid(
    width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8, text: [(String, String)],
    kind: TextChunk = .tEXt
  ) -> Data {
    var raw: [UInt8] = []
    for _ in 0..<height {
      raw.append(0)  // filter: none
      for _ in 0..<width { raw += [red, green, blue] }
    }
    var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    png += chunk("IHDR", be32(width) + be32(height) + [8, 2, 0, 0, 0])
    for (key, value) in text {
      let key = Array(key.utf8) + [0]
      switch kind {
      case .tEXt: png += chunk("tEXt", key + Array(value.utf8))
      // Method 0 (deflate); the "compressed" stream is stored blocks, legal deflate.
      case .zTXt: png += chunk("zTXt", key + [0] + zlibStored(Array(value.utf8)))
      case .compressedITXt:
        png += chunk("iTXt", key + [1, 0] + [0] + [0] + zlibStored(Array(value.utf8)))
      }
    }
    png += chunk("IDAT", zlibStored(raw))
    png += chunk("IEND", [])
    return Data(png)
  }

  /// Every tEXt chunk of `data` (keyword → text), and the IHDR size; nil if it is no PNG.
  static func read(_ data: Data) -> (width: Int, height: Int, text: [String: String])? {
    let bytes = [UInt8](data)
    guard bytes.count > 33, bytes[0] == 0x89, bytes[1] == 0x50 else { return nil }
    var text: [String: String] = [:]
    var offset = 8
    var size = (0, 0)
    while offset + 12 <= bytes.count {
      let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
      let body = Array(bytes[offset + 8..<offset + 8 + length])
      if type == "IHDR" {
        size = (
          body[0..<4].reduce(0) { $0 << 8 | Int($1) }, body[4..<8].reduce(0) { $0 << 8 | Int($1) }
        )
      }
      if type == "tEXt", let nul = body.firstIndex(of: 0) {
        text[String(decoding: body[..<nul], as: UTF8.self)] = String(
          decoding: body[(nul + 1)...], as: UTF8.self)
      }
      if type == "IEND" { break }
      offset += 12 + length
    }
    return (size.0, size.1, text)
  }

  private static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + body
    return be32(body.count) + typed + be32(Int(crc(typed)))
  }

  private static func be32(_ value: Int) -> [UInt8] {
    [
      UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF),
      UInt8(value & 0xFF),
    ]
  }

  /// zlib: header, deflate "stored" blocks of at most 65,535 bytes, Adler-32.
  private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x78, 0x01]
    var start = 0
    repeat {
      let end = min(start + 65_535, data.count)
      let count = end - start
      out.append(end == data.count ? 1 : 0)
      out += [
        UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8(~count >> 8 & 0xFF),
      ]
      out += data[start..<end]
      start = end
    } while start < data.count
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in data {
      a = (a + UInt32(byte)) % 65_521
      b = (b + a) % 65_521
    }
    return out + be32(Int(b << 16 | a))
  }

  private static func crc(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }
}
