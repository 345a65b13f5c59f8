import CVipsShim
import Foundation
import TesseraGeometry

/// Real encoded images for the tests, made by libvips' own savers, and libvips' decoder and
/// header reader as the tests use them to check what came out.
package enum TestImages {
  /// libvips could not encode: its own error text.
  package struct EncodeFailed: Error, CustomStringConvertible {
    package let description: String
  }

  /// RGBA pixels whose red grows left to right and green top to bottom, with a fixed blue, so
  /// a decode can be checked pixel by pixel.
  ///
  /// - Complexity: O(width × height).
  package static func gradientPixels(width: Int, height: Int, blue: UInt8 = 128) -> [UInt8] {
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        let i = (y * width + x) * 4
        pixels[i] = UInt8(x * 255 / max(width - 1, 1))
        pixels[i + 1] = UInt8(y * 255 / max(height - 1, 1))
        pixels[i + 2] = blue
      }
    }
    return pixels
  }

  /// `pixels` (RGBA, `width` × `height`) mirrored left to right.
  ///
  /// - Complexity: O(width × height).
  package static func mirrored(_ pixels: [UInt8], width: Int, height: Int) -> [UInt8] {
    var flipped = pixels
    for y in 0..<height {
      for x in 0..<width {
        let from = (y * width + width - 1 - x) * 4
        let to = (y * width + x) * 4
        for channel in 0..<4 { flipped[to + channel] = pixels[from + channel] }
      }
    }
    return flipped
  }

  /// RGBA pixels of one opaque colour.
  ///
  /// - Complexity: O(width × height).
  package static func solidPixels(width: Int, height: Int, colour: RGB) -> [UInt8] {
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    for i in stride(from: 0, to: pixels.count, by: 4) {
      pixels[i] = colour.red
      pixels[i + 1] = colour.green
      pixels[i + 2] = colour.blue
    }
    return pixels
  }

  /// `pixels` (RGBA) encoded by libvips' saver for `suffix` (".png", ".jpg[Q=90]", ".webp", …).
  package static func encode(
    _ pixels: [UInt8], width: Int, height: Int, as suffix: String
  ) throws(EncodeFailed) -> Data {
    var out: UnsafeMutableRawPointer?
    var length = 0
    let status = pixels.withUnsafeBufferPointer {
      tessera_vips_encode(
        $0.baseAddress, $0.count, Int32(width), Int32(height), 4, suffix, &out, &length)
    }
    guard status == 0, let out else { throw EncodeFailed(description: lastError()) }
    defer { tessera_vips_free(out) }
    return Data(bytes: out, count: length)
  }

  /// A gradient image (`gradientPixels`) encoded as `suffix`; empty when libvips cannot encode
  /// it (a test that needs the bytes then fails on them, naming the format).
  package static func gradient(
    width: Int, height: Int, as suffix: String = ".png", blue: UInt8 = 128
  ) -> Data {
    let pixels = gradientPixels(width: width, height: height, blue: blue)
    return (try? encode(pixels, width: width, height: height, as: suffix)) ?? Data()
  }

  /// libvips' last error text for this thread, which it also clears.
  package static func lastError() -> String {
    var buffer = [CChar](repeating: 0, count: 1024)
    _ = tessera_vips_last_error(&buffer, buffer.count)
    return cString(buffer)
  }

  /// A decoded bitmap: RGBA, row-major.
  package struct Decoded: CustomStringConvertible {
    package let width: Int
    package let height: Int
    package let pixels: [UInt8]

    /// The four channels at (`x`, `y`).
    package func pixel(_ x: Int, _ y: Int) -> [UInt8] {
      let i = (y * width + x) * 4
      return Array(pixels[i..<i + 4])
    }

    /// The colour at (`x`, `y`), alpha dropped.
    package func rgb(_ x: Int, _ y: Int) -> RGB {
      let i = (y * width + x) * 4
      return RGB(pixels[i], pixels[i + 1], pixels[i + 2])
    }

    package var description: String { "\(width)x\(height) bitmap" }
  }

  /// `bytes` decoded and downsampled through libvips (as the image pipeline does) into a
  /// `width`×`height` box; nil when libvips refuses them.
  package static func decode(
    _ bytes: some ContiguousBytes, fitting width: Int, _ height: Int,
    fit: TesseraFit = TESSERA_FIT_INSIDE
  ) -> Decoded? {
    var pixels: UnsafeMutablePointer<UInt8>?
    var length = 0
    var w: Int32 = 0
    var h: Int32 = 0
    let status = bytes.withUnsafeBytes {
      tessera_vips_thumbnail_rgba(
        $0.baseAddress, $0.count, Int32(width), Int32(height), Int32(fit.rawValue), &pixels,
        &length, &w, &h)
    }
    guard status == 0, let pixels else { return nil }
    defer { tessera_vips_free(pixels) }
    return Decoded(
      width: Int(w), height: Int(h),
      pixels: Array(UnsafeBufferPointer(start: pixels, count: length)))
  }

  /// What libvips' header reader says of `bytes`: size and the loader it picked.
  package static func header(
    _ bytes: some ContiguousBytes
  ) -> (width: Int, height: Int, loader: String)? {
    var w: Int32 = 0
    var h: Int32 = 0
    var bands: Int32 = 0
    var loader = [CChar](repeating: 0, count: 64)
    let status = bytes.withUnsafeBytes {
      tessera_vips_header($0.baseAddress, $0.count, &w, &h, &bands, &loader, loader.count)
    }
    guard status == 0 else { return nil }
    return (Int(w), Int(h), cString(loader))
  }

  /// A small SVG drawing of `width`×`height`: what librsvg would render, never a photo.
  package static func svg(width: Int = 64, height: Int = 48) -> Data {
    Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" \
      viewBox="0 0 \(width) \(height)">
        <rect width="\(width)" height="\(height)" fill="#c03"/>
      </svg>
      """.utf8)
  }

  /// A one-page PDF of `width`×`height` points: what poppler would render, never a photo.
  package static func pdf(width: Int = 64, height: Int = 48) -> Data {
    Data(
      """
      %PDF-1.4
      1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
      2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
      3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 \(width) \(height)] >> endobj
      trailer << /Root 1 0 R >>
      %%EOF
      """.utf8)
  }

  /// The text of a NUL-terminated C buffer the shim filled (a loader's or a format's name).
  package static func cString(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
