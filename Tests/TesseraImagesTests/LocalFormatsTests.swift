import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraImages

/// Every format a local folder may hold, as Debian's libvips reads it (jpeg, png, webp, gif,
/// heif for HEIC and AVIF, tiff, jxl loaders), decoded through the pipeline from a file.
@Suite(.timeLimit(.minutes(1))) struct LocalFormatsTests {
  /// A 64×48 JPEG XL of one colour (200, 31, 61), made by `vips copy` (libvips' JPEG XL saver
  /// is marked untrusted, and Tessera blocks untrusted operations in its process).
  private static let jpegXL = Data(
    base64Encoded:
      "/wrLBgEYAZNhCQCACpVRxg1ezvV8+aHDYtrGdYa22rYAAAAAHsDAEsZme2GQEAA1GePx4l0jSAkZQEgXC/KDEmYbFwNgUwgFgOmikgQ="
  )!

  @Test(arguments: [
    ("jpg", ".jpg[Q=95]"), ("png", ".png"), ("webp", ".webp[lossless]"), ("gif", ".gif"),
    ("heic", ".heic[Q=95]"), ("avif", ".heif[compression=av1,Q=95]"), ("tif", ".tif"),
  ])
  func eachFormatLoadsFromAFolder(_ name: String, _ suffix: String) async throws {
    let pixels = TestImages.solidPixels(width: 64, height: 48, colour: RGB(200, 31, 61))
    let bytes = try TestImages.encode(pixels, width: 64, height: 48, as: suffix)
    try await check(bytes, named: "photo.\(name)")
  }

  @Test func jpegXLLoadsFromAFolder() async throws {
    try await check(Self.jpegXL, named: "photo.jxl")
  }

  @Test func avifIsNamedAsSuch() throws {
    let pixels = TestImages.solidPixels(width: 16, height: 16, colour: RGB(1, 2, 3))
    let avif = try TestImages.encode(pixels, width: 16, height: 16, as: ".heif[compression=av1]")
    #expect(ThumbnailPNG.mimeType(of: avif) == "image/avif")
    #expect(ThumbnailPNG.mimeType(of: Self.jpegXL) == "image/jxl")
  }

  private func check(_ bytes: Data, named name: String) async throws {
    try await TemporaryFolder.with { folder in
      let file = folder.appendingPathComponent(name)
      try bytes.write(to: file)
      let thumbnails = ThumbnailCache(directory: folder.appendingPathComponent("thumbnails"))
      let pipeline = makePipeline(HeldDataLoader(), thumbnails: thumbnails)
      let image = try await pipeline.image(
        for: ImageRequest(
          url: file, targetSize: PixelSize(width: 32, height: 32), source: .localFolder))
      #expect(image.size == PixelSize(width: 32, height: 24), "\(name)")
      #expect(image.centreIs((200, 31, 61)), "\(name): \(image.centre)")
      // And its thumbnail was written, with the format's MIME type.
      let hash = ThumbnailURI(path: file.path).hash
      let png = HandMadePNG.read(
        try Data(contentsOf: thumbnails.directory.appendingPathComponent("normal/\(hash).png")))
      #expect(png?.text["Thumb::Mimetype"]?.hasPrefix("image/") == true, "\(name)")
    }
  }
}
