import Foundation
import TesseraImages
import TesseraTestSupport

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

  /// A grey RGB PNG, written by libpng.
  static func png(width: Int, height: Int) -> Data {
    CraftedPNG.grey(width: width, height: height)
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
