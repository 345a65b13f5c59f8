import Crypto
import Foundation
import Hummingbird
import TesseraImages

/// `GET /thumb`: the image at `url` through the pipeline (its caches, its coalescing: twenty
/// clients asking for one thumbnail cause one download and one decode), fitted into w×w,
/// encoded, with a strong ETag of the bytes and a day's Cache-Control. A client's
/// `If-None-Match` that matches gets 304 and no body.
public struct ThumbnailRoute: Sendable {
  let pipeline: ImagePipeline

  /// The route over `pipeline`.
  public init(pipeline: ImagePipeline) {
    self.pipeline = pipeline
  }

  /// The answer to one `GET /thumb`.
  public func respond(to request: Request) async -> Response {
    let query: ThumbnailQuery
    do {
      query = try ThumbnailQuery(
        Dictionary(
          request.uri.queryParameters.map { (String($0.key), String($0.value)) },
          uniquingKeysWith: { first, _ in first }))
    } catch {
      return Self.text(.badRequest, error.description)
    }
    let side = PixelSize(width: query.width, height: query.width)
    let image: Image
    do {
      image = try await pipeline.image(for: ImageRequest(url: query.url, targetSize: side))
    } catch {
      // The origin's failure, said as it is: a status of its own, a decoder's reason.
      let status: HTTPResponse.Status =
        switch error {
        case .invalidURL, .schemeNotAllowed, .invalidRequest: .badRequest
        case .timedOut: .gatewayTimeout
        default: .badGateway
        }
      return Self.text(status, "the image could not be loaded: \(error)")
    }
    let bytes: Data
    do {
      bytes = try ImageEncoder.encode(image, as: query.format)
    } catch {
      return Self.text(.internalServerError, "\(error)")
    }
    let etag =
      "\""
      + SHA256.hash(data: bytes).prefix(16).map { String(format: "%02x", $0) }
      .joined() + "\""
    var headers: HTTPFields = [
      .eTag: etag, .cacheControl: "public, max-age=86400", .contentType: query.format.mimeType,
    ]
    if request.headers[.ifNoneMatch] == etag {
      return Response(status: .notModified, headers: headers)
    }
    headers[.contentLength] = String(bytes.count)
    return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: bytes)))
  }

  private static func text(_ status: HTTPResponse.Status, _ message: String) -> Response {
    Response(
      status: status, headers: [.contentType: "text/plain; charset=utf-8"],
      body: .init(byteBuffer: ByteBuffer(string: message + "\n")))
  }
}
