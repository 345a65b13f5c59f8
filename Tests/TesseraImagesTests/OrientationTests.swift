import CVipsShim
import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraImages

/// EXIF orientation: a photo stored sideways or mirrored (as cameras and phones write them)
/// is shown upright. Each of the 8 orientations: a JPEG whose stored pixels are the upright
/// picture transformed the way the tag says, with a red top-left corner and a blue top-right
/// one; once decoded, both corners must be back in place and the size upright.
@Suite(.timeLimit(.minutes(1))) struct OrientationTests {
  /// The upright picture: 64×48, grey, red block top left, blue block top right.
  private static let width = 64
  private static let height = 48

  private static func upright(_ x: Int, _ y: Int) -> [UInt8] {
    if y < 12 && x < 16 { return [230, 20, 20] }
    if y < 12 && x >= 48 { return [20, 20, 230] }
    return [128, 128, 128]
  }

  /// The JPEG a camera would write for the upright picture under `orientation`.
  private static func storedJPEG(_ orientation: Int) throws -> Data {
    let swaps = orientation >= 5
    let rawWidth = swaps ? height : width
    let rawHeight = swaps ? width : height
    var pixels: [UInt8] = []
    for y in 0..<rawHeight {
      for x in 0..<rawWidth {
        let (ux, uy) = shownPosition(orientation, x, y, rawWidth: rawWidth, rawHeight: rawHeight)
        pixels += upright(ux, uy)
      }
    }
    var out: UnsafeMutableRawPointer?
    var length = 0
    let status = "orientation".withCString { name in
      var field = TesseraMetadataField(name: name, text: nil, number: Int32(orientation))
      return pixels.withUnsafeBufferPointer {
        tessera_vips_encode_with_metadata(
          $0.baseAddress, $0.count, Int32(rawWidth), Int32(rawHeight), 3, ".jpg[Q=95]", &field, 1,
          &out,
          &length)
      }
    }
    guard status == 0, let out else { throw EncodeFailed(description: TestImages.lastError()) }
    defer { tessera_vips_free(out) }
    return Data(bytes: out, count: length)
  }

  @Test(arguments: 1...8)
  func photosAreShownUpright(_ orientation: Int) async throws {
    try await TemporaryFolder.with { folder in
      let jpeg = try Self.storedJPEG(orientation)
      let file = folder.appendingPathComponent("photo-\(orientation).jpg")
      try jpeg.write(to: file)
      // libvips recorded the tag: the header is stored sideways for 5…8.
      let header = try #require(TestImages.header(jpeg))
      #expect((header.width, header.height) == (orientation >= 5 ? (48, 64) : (64, 48)))

      let pipeline = makePipeline(HeldDataLoader())
      let image = try await pipeline.image(
        for: ImageRequest(
          url: file, targetSize: PixelSize(width: 64, height: 64), source: .localFolder))
      #expect(image.size == PixelSize(width: 64, height: 48))
      #expect(image.originalSize == PixelSize(width: 64, height: 48))
      let corners = [(4, 4, "red"), (60, 4, "blue"), (4, 44, "grey"), (60, 44, "grey")]
      for (x, y, expected) in corners {
        #expect(Self.colour(image, x, y) == expected, "(\(x), \(y)) of orientation \(orientation)")
      }
    }
  }

  @Test func thumbnailsAreWrittenUpright() async throws {
    let scene = try ThumbnailScene()
    defer { scene.remove() }
    try Self.storedJPEG(6).write(to: scene.original)
    _ = try await scene.pipeline().image(for: scene.request(64, 48, .aspectFit))
    let png = try #require(HandMadePNG.read(try Data(contentsOf: scene.url("normal"))))
    #expect(png.width == 64 && png.height == 48)
    #expect(png.text["Thumb::Image::Width"] == "64")
    #expect(png.text["Thumb::Image::Height"] == "48")
    let decoded = try #require(
      TestImages.decode(try Data(contentsOf: scene.url("normal")), fitting: 64, 64))
    #expect(decoded.rgb(4, 4).red > 180 && decoded.rgb(60, 4).blue > 180)
  }

  private struct EncodeFailed: Error, CustomStringConvertible {
    let description: String
  }

  private static func colour(_ image: Image, _ x: Int, _ y: Int) -> String {
    let i = (y * image.width + x) * 4
    let (r, g, b) = (Int(image.pixels[i]), Int(image.pixels[i + 1]), Int(image.pixels[i + 2]))
    if r > 180 && g < 90 && b < 90 { return "red" }
    if b > 180 && r < 90 && g < 90 { return "blue" }
    if abs(r - 128) < 40 && abs(g - 128) < 40 && abs(b - 128) < 40 { return "grey" }
    return "rgb(\(r), \(g), \(b))"
  }
}
