import CPNG

/// Reads back what the renderer wrote with the system's own decoders (libpng's reader and
/// zlib's inflate), which share no code with the writer's encoding choices; a payload that
/// breaks its format throws instead of decoding to something else.
enum WireDecoding {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The data of one whole zlib stream.
  static func zlib(_ bytes: [UInt8], maxBytes: Int = 64 << 20) throws -> [UInt8] {
    var out: UnsafeMutablePointer<UInt8>?
    var length = 0
    let status = bytes.withUnsafeBufferPointer {
      tessera_zlib_uncompress($0.baseAddress, $0.count, maxBytes, &out, &length)
    }
    guard status == 0, let out else { throw Failure(description: "not a whole zlib stream") }
    defer { tessera_png_free(out) }
    return [UInt8](UnsafeBufferPointer(start: out, count: length))
  }

  /// RGBA pixels of a PNG, and its size.
  static func png(_ bytes: [UInt8]) throws -> (width: Int, height: Int, rgba: [UInt8]) {
    var pixels: UnsafeMutablePointer<UInt8>?
    var length = 0
    var width: Int32 = 0
    var height: Int32 = 0
    var error = [CChar](repeating: 0, count: 128)
    let status = bytes.withUnsafeBufferPointer {
      tessera_png_decode_rgba(
        $0.baseAddress, $0.count, 16_384, 1 << 28, &pixels, &length, &width, &height, &error,
        error.count)
    }
    guard status == 0, let pixels else {
      let reason = String(
        decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw Failure(description: "not a PNG libpng reads: \(reason)")
    }
    defer { tessera_png_free(pixels) }
    return (Int(width), Int(height), [UInt8](UnsafeBufferPointer(start: pixels, count: length)))
  }

  /// RGB or RGBA samples as RGBA (opaque when there are 3 channels).
  static func rgba(_ raw: [UInt8], channels: Int) -> [UInt8] {
    guard channels == 3 else { return raw }
    var out: [UInt8] = []
    out.reserveCapacity(raw.count / 3 * 4)
    for pixel in stride(from: 0, to: raw.count - 2, by: 3) {
      out += [raw[pixel], raw[pixel + 1], raw[pixel + 2], 255]
    }
    return out
  }
}
