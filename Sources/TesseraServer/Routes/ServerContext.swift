import Hummingbird
import NIOCore

/// The request context of the feed server: Hummingbird's core storage plus the connection,
/// which the dropped-connection fault closes mid-answer. Request bodies are refused beyond
/// `maxUploadSize` (the server takes none).
struct ServerContext: RequestContext {
  var coreContext: CoreRequestContextStorage
  let channel: any Channel

  init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
    channel = source.channel
  }

  var maxUploadSize: Int { ServerLimits.maxUploadSize }
}

/// Refuses what the server does not serve before any route runs: methods other than GET and
/// HEAD, over-long targets and `..` path segments. HEAD is answered as GET would be, headers
/// and all (Content-Length included), without the body.
struct RequestLimits: RouterMiddleware {
  typealias Context = ServerContext
  static let maxTargetLength = ServerLimits.maxTargetLength
  static let allowedMethods = "GET, HEAD"

  func handle(
    _ request: Request, context: ServerContext,
    next: (Request, ServerContext) async throws -> Response
  ) async throws -> Response {
    guard request.method == .head else { return try await answer(request, context, next) }
    // The routes are GET routes: HEAD runs one as GET and keeps only its head. A streamed
    // body (throttled, dropped) is never started.
    var head = request.head
    head.method = .get
    return try await answer(Request(head: head, body: request.body), context, next)
      .createHeadResponse()
  }

  private func answer(
    _ request: Request, _ context: ServerContext,
    _ next: (Request, ServerContext) async throws -> Response
  ) async throws -> Response {
    guard request.method == .get else {
      var response = Response.text(.methodNotAllowed, "only GET and HEAD are served\n")
      response.headers[.allow] = Self.allowedMethods
      return response
    }
    guard request.uri.description.utf8.count <= Self.maxTargetLength else {
      return .text(.uriTooLong, "the request target is longer than \(Self.maxTargetLength) bytes\n")
    }
    let segments = request.uri.path.split(separator: "/")
    guard !segments.contains(where: { $0 == ".." || $0.lowercased().contains("%2e") }) else {
      return .text(.notFound, "not served\n")
    }
    return try await next(request, context)
  }
}

extension Response {
  /// A small plain-text answer.
  static func text(_ status: HTTPResponse.Status, _ text: String) -> Response {
    Response(
      status: status, headers: [.contentType: "text/plain; charset=utf-8"],
      body: .init(byteBuffer: ByteBuffer(string: text)))
  }
}
