import Foundation
import Hummingbird
import TesseraImages
import ThumbnailKit

/// An origin on 127.0.0.1 with one private photo: 401 without `Authorization: Bearer
/// s3cret`, the photo with it.
enum PrivateOrigin {
  static let token = "Bearer s3cret"

  /// Runs `body` with the origin's base URL; the origin stops when `body` returns.
  static func run(photo: Data, _ body: @Sendable (URL) async throws -> Void) async throws {
    let router = Router()
    router.get("private/photo.jpg") { request, _ -> Response in
      guard request.headers[.authorization] == token else { return Response(status: .unauthorized) }
      return Response(
        status: .ok, headers: [.contentType: "image/jpeg"],
        body: .init(byteBuffer: ByteBuffer(data: photo)))
    }
    try await LocalServer.with(router) { port in
      guard let base = URL(string: "http://127.0.0.1:\(port)/") else { return }
      try await body(base)
    }
  }
}
