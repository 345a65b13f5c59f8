import Foundation
import TesseraImages

/// The pipeline as another program uses it: a private image with its token and an image id,
/// processed; bytes it already holds; the result written back out. Prints what it got and
/// exits 1 if anything is not as it should be.
@main
struct PipelineTour {
  static func main() async throws {
    setenv("LOG_LEVEL", "critical", 1)  // the origin's start and stop lines are not the tour's
    // A photo to serve and to hold: 600×400 of a gradient, made and encoded here.
    var pixels = [UInt8]()
    for y in 0..<400 {
      for x in 0..<600 { pixels += [UInt8(x * 255 / 600), UInt8(y * 255 / 400), 90, 255] }
    }
    let photo = try Image(
      width: 600, height: 400, pixels: pixels, originalSize: PixelSize(width: 600, height: 400))
    let bytes = try ImageEncoder.encode(photo, as: .jpeg(quality: 90))
    ImagePipeline.shared = ImagePipeline(configuration: .init(memoryCache: MemoryCache()))

    try await PrivateOrigin.run(photo: bytes) { base in
      let url = base.appendingPathComponent("private/photo.jpg")
      var failures: [String] = []
      do throws(ImagePipelineError) {
        _ = try await ImagePipeline.shared.image(
          for: ImageRequest(url: url, targetSize: PixelSize(width: 256, height: 256)))
        failures.append("the private photo loaded without its token")
      } catch {
        print("without the token: \(error)")
        if error != .badStatus(401) { failures.append("expected HTTP 401, got \(error)") }
      }

      var request = ImageRequest(url: url, targetSize: PixelSize(width: 256, height: 256))
      request.headers = ["Authorization": "Bearer s3cret"]
      request.imageID = "photo-1"
      request.processors = [
        .crop(Rect(x: 0, y: 0, width: 100, height: 100)), .gaussianBlur(sigma: 2),
      ]
      let remote = try await ImagePipeline.shared.image(for: request)
      let local = try await ImagePipeline.shared.image(
        for: ImageRequest(
          id: "upload-1", data: bytes, targetSize: PixelSize(width: 256, height: 256)))
      let webp: Data = try ImageEncoder.encode(local, as: .webp(quality: 80))

      print("remote: \(remote.width)×\(remote.height) px of \(remote.originalSize)")
      print("local: \(local.width)×\(local.height) px")
      print("webp: \(webp.count) bytes")
      if remote.size != PixelSize(width: 100, height: 100) {
        failures.append("the processed remote image is \(remote.size), not 100×100")
      }
      if local.size != PixelSize(width: 256, height: 171) {
        failures.append("the held bytes decoded to \(local.size), not 256×171")
      }
      if !webp.starts(with: Array("RIFF".utf8)) { failures.append("the WebP is no RIFF file") }
      let cached = ImagePipeline.shared.cache[request]
      if cached != remote { failures.append("the processed image is not cached under its id") }
      for failure in failures { print("✗ " + failure) }
      if !failures.isEmpty { exit(1) }
      print("✓ every step as expected")
    }
    await ImagePipeline.shared.shutdown()
  }
}
