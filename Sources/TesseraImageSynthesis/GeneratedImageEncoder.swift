import CVipsShim

/// Encodes RGB pixels through libvips (`tessera_vips_encode`).
enum GeneratedImageEncoder {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  static func encode(
    rgb pixels: [UInt8], width: Int, height: Int, as format: ImageFormat
  ) throws -> [UInt8] {
    guard tessera_vips_init() == 0 else { throw Failure(description: "libvips did not start") }
    var out: UnsafeMutableRawPointer?
    var length = 0
    let status = pixels.withUnsafeBufferPointer { buffer in
      tessera_vips_encode(
        buffer.baseAddress, buffer.count, Int32(width), Int32(height), 3, format.vipsSuffix, &out,
        &length)
    }
    guard status == 0, let out else {
      var message = [CChar](repeating: 0, count: 512)
      tessera_vips_last_error(&message, message.count)
      let text = String(
        decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw Failure(
        description: "encoding \(width)x\(height) as \(format.rawValue) failed: \(text)")
    }
    defer { tessera_vips_free(out) }
    return Array(UnsafeRawBufferPointer(start: out, count: length))
  }
}
