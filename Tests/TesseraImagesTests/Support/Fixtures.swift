import Foundation
import TesseraTestSupport
import TesseraUtilities

@testable import TesseraImages

/// Real encoded images for the tests, made by libvips' own savers.
enum Fixtures {
  static let png = TestImages.gradient(width: 64, height: 48)
  static let otherPNG = TestImages.gradient(width: 30, height: 60)
  static let jpeg = TestImages.gradient(width: 80, height: 40, as: ".jpg[Q=90]")

  static let tiff = TestImages.gradient(width: 40, height: 30, as: ".tif")

  static func url(_ name: String) -> URL {
    URL(string: "https://images.test/\(name)") ?? URL(fileURLWithPath: "/")
  }

  static func request(
    _ name: String, size: Int? = nil, priority: ImageRequest.Priority = .normal,
    policy: ImageRequest.CachePolicy = .useCache
  ) -> ImageRequest {
    ImageRequest(
      url: url(name), targetSize: size.map { PixelSize(width: $0, height: $0) },
      priority: priority, cachePolicy: policy)
  }

  static func ok(
    _ data: Data = png, type: String? = "image/png", headers: [String: String] = [:]
  )
    -> DataResponse
  {
    var all = headers
    if let type { all["Content-Type"] = type }
    return DataResponse(statusCode: 200, headers: all, data: data)
  }

  /// A PNG claiming `width`x`height` pixels that holds almost no pixel data: a
  /// decompression bomb's shape, without the bomb.
  static func pngHeader(width: UInt32, height: UInt32) -> Data {
    CraftedPNG.claiming(width: width, height: height)
  }
}

/// A mutable clock for the disk cache's freshness decisions.
final class TestClock: Sendable {
  private let date = Locked(Date(timeIntervalSince1970: 1_700_000_000))
  var now: Date { date.withLock { $0 } }
  func advance(_ seconds: TimeInterval) { date.withLock { $0 += seconds } }
}
