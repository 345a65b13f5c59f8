import CVipsShim
import Foundation
import Testing

/// libvips' module folder is steered through VIPSHOME, set before main while the process has
/// one thread (setenv on a worker thread raced every other thread's getenv). (Kept out of the
/// programs Tessera starts: `ChildEnvironmentTests`.)
@Suite struct VipsHomeTests {
  @Test func itIsSetBeforeLibvipsStartsAndStaysSet() throws {
    _ = tessera_vips_init()
    let home = try #require(getenv("VIPSHOME").map { String(cString: $0) })
    #expect(home.hasPrefix("/nonexistent/tessera"))
  }
}

/// The shim's encoders hand libvips only pixels that add up, and never ask its savers for
/// what libvips 8.14 gets wrong.
@Suite struct EncodeBufferTests {
  @Test(arguments: [0, 47, 49, 1 << 20])
  func aBufferOfAnyOtherLengthIsRefused(length: Int) {
    let pixels = [UInt8](repeating: 9, count: length)
    var out: UnsafeMutableRawPointer?
    var size = 0
    let status = pixels.withUnsafeBufferPointer {
      tessera_vips_encode($0.baseAddress, $0.count, 4, 4, 3, ".png", &out, &size)
    }
    // (libvips' error text is one buffer per process, shared by the cases running at once.)
    #expect(status == -1 && out == nil)
  }

  /// libvips 8.14's PNG saver, asked for 16 bits of an 8-bit image, read twice each row's
  /// bytes past its buffer (AddressSanitizer's report in `make sanitize`); the shim makes the
  /// image 16-bit first, and the file holds the same colours.
  @Test func sixteenBitPNGsHoldTheEightBitColours() throws {
    let (width, height) = (256, 40)
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    for index in pixels.indices { pixels[index] = UInt8(truncatingIfNeeded: index * 7) }
    var out: UnsafeMutableRawPointer?
    var size = 0
    let status = pixels.withUnsafeBufferPointer {
      tessera_vips_encode(
        $0.baseAddress, $0.count, Int32(width), Int32(height), 3, ".png[bitdepth=16]", &out,
        &size)
    }
    #expect(status == 0)
    let png = try #require(out.map { Data(bytes: $0, count: size) })
    tessera_vips_free(out)
    // IHDR: bit depth 16, colour type 2 (RGB).
    #expect(png.count > 26 && png[24] == 16 && png[25] == 2)
    var decoded: UnsafeMutablePointer<UInt8>?
    var length = 0
    var (decodedWidth, decodedHeight): (Int32, Int32) = (0, 0)
    let loaded = png.withUnsafeBytes {
      tessera_vips_load_rgba_allowed(
        $0.baseAddress, $0.count, TESSERA_FORMAT_PNG.rawValue, &decoded, &length, &decodedWidth,
        &decodedHeight)
    }
    #expect(loaded == 0 && decodedWidth == Int32(width) && decodedHeight == Int32(height))
    let rgba = try #require(decoded.map { [UInt8](UnsafeBufferPointer(start: $0, count: length)) })
    tessera_vips_free(decoded)
    for pixel in [0, 1, 777, width * height - 1] {
      #expect(
        Array(rgba[(pixel * 4)..<(pixel * 4 + 3)]) == Array(pixels[(pixel * 3)..<(pixel * 3 + 3)]))
    }
  }
}
