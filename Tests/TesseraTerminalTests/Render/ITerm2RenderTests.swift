import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraTerminal

/// iTerm2's inline images read back as a terminal would: each escape code's file decoded by
/// libvips or libpng (not by the code that wrote it) must be the tile's own picture,
/// filled to its cells, drawn over exactly those cells.
@Suite struct ITerm2RenderTests {
  struct Drawn {
    var column: Int
    var row: Int
    var columns: Int
    var rows: Int
    var file: [UInt8]
  }

  /// Every `OSC 1337 ; File=… : base64 BEL` in `bytes`, with the cell the cursor was moved to
  /// just before it (CUP).
  static func images(in bytes: [UInt8]) throws -> [Drawn] {
    let text = String(decoding: bytes, as: UTF8.self)
    var drawn: [Drawn] = []
    var rest = Substring(text)
    while let start = rest.range(of: "\u{1B}]1337;File=") {
      let before = rest[..<start.lowerBound]
      let cursor = before.range(of: "\u{1B}[", options: .backwards).map { before[$0.upperBound...] }
      let position = (cursor?.split(separator: "H").first ?? "").split(separator: ";").compactMap {
        Int($0)
      }
      let after = rest[start.upperBound...]
      let end = try #require(after.firstIndex(of: "\u{07}"))
      let body = after[..<end]
      let parts = body.split(separator: ":", maxSplits: 1)
      var arguments: [String: String] = [:]
      for pair in parts[0].split(separator: ";") {
        let kv = pair.split(separator: "=", maxSplits: 1)
        if kv.count == 2 { arguments[String(kv[0])] = String(kv[1]) }
      }
      #expect(arguments["inline"] == "1")
      #expect(arguments["preserveAspectRatio"] == "0")
      let file = try #require(Data(base64Encoded: String(parts[1])))
      #expect(Int(arguments["size"] ?? "") == file.count)
      drawn.append(
        Drawn(
          column: (position.count > 1 ? position[1] : 1) - 1,
          row: (position.first ?? 1) - 1,
          columns: Int(arguments["width"] ?? "") ?? -1, rows: Int(arguments["height"] ?? "") ?? -1,
          file: Array(file)))
      rest = after[end...]
    }
    return drawn
  }

  /// A JPEG's pixels at its own size, decoded by libvips (libjpeg-turbo underneath), not by
  /// the code that wrote it.
  static func decodeJPEG(_ bytes: [UInt8]) throws -> (width: Int, height: Int, rgba: [UInt8]) {
    guard let header = TestImages.header(bytes), header.loader.hasPrefix("jpeg"),
      let decoded = TestImages.decode(bytes, fitting: header.width, header.height)
    else { throw WireDecoding.Failure(description: "not a JPEG libvips reads") }
    return (decoded.width, decoded.height, decoded.pixels)
  }

  static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
    var sum = 0.0
    var count = 0
    for index in a.indices where index % 4 != 3 {
      let difference = Double(a[index]) - Double(b[index])
      sum += difference * difference
      count += 1
    }
    let mse = sum / Double(max(1, count))
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
  }

  /// A photo-like tile (smooth shapes, fine texture) of another shape than its cells: the
  /// JPEG drawn is the tile's centre, filled to the cells' pixels, at photo quality.
  @Test func aFrameDecodesBackToTheTilesPicture() throws {
    let cell = PixelSize(width: 10, height: 20)
    let bitmap = try Bitmap.generated(width: 300, height: 200) { x, y in
      let wave = Int(40 * sin(Double(x) / 13) + 30 * cos(Double(y) / 7))
      return (
        UInt8(clamping: 120 + wave + (x * y) % 23), UInt8(clamping: x * 255 / 300),
        UInt8(clamping: y * 255 / 200), 255
      )
    }
    let renderer = TerminalRenderer(graphics: .iterm2, cellPixelSize: cell)
    var frame = FrameBuffer(width: 40, height: 14)
    frame.put("status", x: 0, y: 13)
    let rect = CellRect(x: 5, y: 2, width: 16, height: 6)
    let bytes = renderer.render(
      frame, images: [ImagePlacement(imageID: 3, bitmap: bitmap, rect: rect)])
    let drawn = try Self.images(in: bytes)
    #expect(drawn.count == 1)
    let image = try #require(drawn.first)
    #expect(image.column == 5 && image.row == 2)
    #expect(image.columns == 16 && image.rows == 6)
    #expect(image.file.starts(with: [0xFF, 0xD8, 0xFF]), "a JPEG")
    let decoded = try Self.decodeJPEG(image.file)
    #expect(decoded.width == 160 && decoded.height == 120)
    let expected = AreaResampler.fill(
      bitmap, width: 160, height: 120, crop: Rect(x: 0, y: 0, width: 160, height: 120),
      unit: PixelSize(width: 1, height: 1))
    let quality = Self.psnr(decoded.rgba, expected)
    #expect(quality > 32, "PSNR \(quality) dB")
    // A stretched picture instead of the filled one would read far worse.
    let stretched = AreaResampler.resample(bitmap, width: 160, height: 120)
    #expect(Self.psnr(decoded.rgba, stretched) < quality - 3)
    // The same frame again costs nothing; the text under it is never rewritten.
    #expect(
      try Self.images(
        in: renderer.render(frame, images: [ImagePlacement(imageID: 3, bitmap: bitmap, rect: rect)])
      ).isEmpty)
  }

  /// Where alpha matters the file is a PNG, exact.
  @Test func transparentTilesGoAsExactPNGs() throws {
    let bitmap = try Bitmap.generated(width: 40, height: 40) { x, y in
      (UInt8(x * 6), UInt8(y * 6), 90, (x + y) % 3 == 0 ? 0 : 255)
    }
    let renderer = TerminalRenderer(
      graphics: .iterm2, cellPixelSize: PixelSize(width: 10, height: 20))
    let bytes = renderer.render(
      FrameBuffer(width: 20, height: 8),
      images: [
        ImagePlacement(imageID: 4, bitmap: bitmap, rect: CellRect(x: 0, y: 0, width: 4, height: 2))
      ])
    let image = try #require(try Self.images(in: bytes).first)
    let decoded = try WireDecoding.png(image.file)
    #expect(decoded.width == 40 && decoded.height == 40)
    // Alpha exact; colour exact wherever a pixel shows (a clear pixel's colour is nothing).
    let mismatches = stride(from: 0, to: bitmap.pixels.count, by: 4).filter { index in
      let alpha = bitmap.pixels[index + 3]
      guard decoded.rgba[index + 3] == alpha else { return true }
      return alpha == 255 && decoded.rgba[index..<(index + 3)] != bitmap.pixels[index..<(index + 3)]
    }
    #expect(mismatches.isEmpty, "\(mismatches.count) pixels differ")
  }
}
