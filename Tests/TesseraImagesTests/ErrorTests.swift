import Foundation
import Testing

@testable import TesseraImages

@Suite(.timeLimit(.minutes(1))) struct ErrorTests {
  private func load(
    _ answer: HeldDataLoader.Answer, request: ImageRequest = Fixtures.request("x", size: 16),
    maxPixels: Int = 100_000_000, maxBytes: Int = 50 << 20
  ) async -> (ImagePipelineError?, ImagePipeline) {
    let loader = HeldDataLoader { _ in answer }
    let pipeline = makePipeline(loader, maxPixels: maxPixels, maxBytes: maxBytes)
    do {
      _ = try await pipeline.image(for: request)
      return (nil, pipeline)
    } catch {
      return (error, pipeline)
    }
  }

  @Test(arguments: ["ftp://host/a.png", "http:///a.png", "mailto:someone@example.com"])
  func invalidURL(_ text: String) async throws {
    let url = try #require(URL(string: text))
    let (error, pipeline) = await load(.success(Fixtures.ok()), request: ImageRequest(url: url))
    #expect(error == .invalidURL(text))
    #expect(pipeline.statistics.downloadsStarted == 0)
    #expect(error?.description.contains("invalid image URL") == true)
  }

  @Test func badStatus() async {
    let (error, _) = await load(.success(DataResponse(statusCode: 404, data: Data("nope".utf8))))
    #expect(error == .badStatus(404))
    #expect(error?.description == "server answered HTTP 404")
  }

  @Test func notAnImageByContentType() async {
    let (error, _) = await load(.success(Fixtures.ok(Data("<html>".utf8), type: "text/html")))
    #expect(error == .notAnImage(contentType: "text/html"))
  }

  @Test func notAnImageBySniffingWhenNoContentType() async {
    let (error, _) = await load(.success(Fixtures.ok(Data("plain words".utf8), type: nil)))
    #expect(error == .notAnImage(contentType: nil))
    #expect(error?.description == "not an image (content type none)")
  }

  @Test func sniffedImageWithoutOrWithGenericContentTypeLoads() async {
    let (none, _) = await load(.success(Fixtures.ok(Fixtures.jpeg, type: nil)))
    #expect(none == nil)
    let (generic, _) = await load(
      .success(Fixtures.ok(Fixtures.png, type: "application/octet-stream")))
    #expect(generic == nil)
  }

  @Test func tooManyBytes() async {
    let (error, pipeline) = await load(.success(Fixtures.ok()), maxBytes: 100)
    #expect(error == .tooLarge(.bytes(Fixtures.png.count, limit: 100)))
    #expect(pipeline.statistics.decodes == 0)
  }

  @Test func tooManyPixelsIsRefusedBeforeDecoding() async {
    let (error, pipeline) = await load(.success(Fixtures.ok()), maxPixels: 1000)
    #expect(error == .tooLarge(.pixels(width: 64, height: 48, limit: 1000)))
    #expect(pipeline.statistics.decodes == 0)
    #expect(pipeline.statistics.decodeFailures == 1)
  }

  @Test func decompressionBombIsRefusedFromItsHeader() async {
    let bomb = Fixtures.pngHeader(width: 100_000, height: 100_000)
    let (error, _) = await load(.success(Fixtures.ok(bomb)))
    #expect(error == .tooLarge(.pixels(width: 100_000, height: 100_000, limit: 100_000_000)))
  }

  @Test func decodingFailed() async {
    let truncated = Fixtures.jpeg.prefix(Fixtures.jpeg.count / 2)
    let (error, _) = await load(.success(Fixtures.ok(Data(truncated), type: "image/jpeg")))
    guard case .decodingFailed(let reason) = error else {
      Issue.record("expected decodingFailed, got \(String(describing: error))")
      return
    }
    #expect(!reason.isEmpty)
  }

  @Test func garbageUnderAnImageTypeFailsToDecode() async {
    let (error, _) = await load(
      .success(Fixtures.ok(Data(repeating: 7, count: 500), type: "image/png")))
    guard case .decodingFailed = error else {
      Issue.record("expected decodingFailed, got \(String(describing: error))")
      return
    }
  }

  @Test func loaderErrorsPassThrough() async {
    for failure in [ImagePipelineError.timedOut, .networkFailed("connection refused")] {
      let (error, pipeline) = await load(.failure(failure))
      #expect(error == failure)
      #expect(pipeline.statistics.downloadsFailed == 1)
    }
  }

  @Test func failuresAreNotCached() async {
    let loader = HeldDataLoader { request in
      request.url.lastPathComponent == "x" ? .success(DataResponse(statusCode: 500)) : nil
    }
    let pipeline = makePipeline(loader)
    for _ in 0..<2 {
      await #expect(throws: ImagePipelineError.badStatus(500)) {
        try await pipeline.image(for: Fixtures.request("x"))
      }
    }
    #expect(loader.callCount == 2)
  }

  @Test func everyErrorHasAClearMessage() {
    let errors: [ImagePipelineError] = [
      .invalidURL("x"), .badStatus(503), .notAnImage(contentType: "text/html"),
      .tooLarge(.bytes(10, limit: 5)), .tooLarge(.pixels(width: 9, height: 9, limit: 5)),
      .decodingFailed("bad huffman"), .timedOut, .cancelled, .networkFailed("reset"), .notInCache,
      .unsupportedFormat("SVG"), .schemeNotAllowed(url: "file:///etc/passwd", source: .network),
      .schemeNotAllowed(url: "http://x/a.png", source: .localFolder),
      .fileRefused(path: "/p/a.png", .symbolicLink), .fileRefused(path: "/p/a.png", .notFound),
      .fileRefused(path: "/p/a.png", .notARegularFile),
      .fileRefused(path: "/p/a.png", .unreadable("Permission denied")),
      .tooLarge(.side(width: 1, height: 70_000, limit: 65_535)),
    ]
    let messages = errors.map(\.description)
    #expect(Set(messages).count == errors.count)
    #expect(messages[4] == "too large: 9x9 pixels, the limit is 5 pixels")
    #expect(messages.last == "too large: 1x70000 pixels, the limit is 65535 pixels a side")
  }
}
