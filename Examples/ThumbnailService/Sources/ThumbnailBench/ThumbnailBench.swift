import Foundation
import Hummingbird
import TesseraImages
import ThumbnailKit

/// `thumbnail-bench [REQUESTS] [CONCURRENCY]`: thumbnails per second and p99 of the service
/// (`/thumb`, its pipeline's memory cache off, so every request fetches, decodes and encodes)
/// against `vips thumbnail` started per request, on the same photos, the same width (256) and
/// format (WebP, quality 80), the same concurrency. Both measured in this run; prints the
/// ratios. Exits 1 when any request of either fails: a failed thumbnail is no timing.
@main
struct ThumbnailBench {
  static func main() async throws {
    setenv("LOG_LEVEL", "critical", 1)
    let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
    let requests = min(max(arguments.first ?? 96, 8), 10_000)
    let concurrency = min(max(arguments.dropFirst().first ?? 2, 1), 64)
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("thumbnail-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    print("making 12 photo-like 2400×1600 JPEGs…")
    let photos = try BenchPhotos.make(count: 12, into: folder)
    let contents = try photos.map { try Data(contentsOf: $0) }

    let vips = try await timeVips(photos, requests: requests, concurrency: concurrency, in: folder)
    print(vips.line)
    let service = try await timeService(contents, requests: requests, concurrency: concurrency)
    print(service.line)
    print(
      String(
        format: "service / vips thumbnail: %.2f× the thumbnails a second, p99 %.2f×",
        service.perSecond / max(vips.perSecond, 1e-9),
        service.percentile(0.99) / max(vips.percentile(0.99), 1e-9)))
  }

  /// Runs `work(index)` for every index below `count`, at most `concurrency` at once; each
  /// one's milliseconds, and the whole run's seconds.
  static func timed(
    _ name: String, count: Int, concurrency: Int,
    _ work: @escaping @Sendable (Int) async throws -> Void
  ) async throws -> Timings {
    let clock = ContinuousClock()
    let start = clock.now
    var timings = Timings(name: name)
    try await withThrowingTaskGroup(of: Double.self) { group in
      var next = 0
      func add() {
        let index = next
        next += 1
        group.addTask {
          let began = clock.now
          try await work(index)
          let elapsed = clock.now - began
          return Double(elapsed.components.seconds) * 1_000
            + Double(elapsed.components.attoseconds) / 1e15
        }
      }
      for _ in 0..<min(concurrency, count) { add() }
      while let milliseconds = try await group.next() {
        timings.milliseconds.append(milliseconds)
        if next < count { add() }
      }
    }
    let wall = clock.now - start
    timings.wall = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
    return timings
  }

  struct Failed: Error, CustomStringConvertible {
    let description: String
  }

  static func timeVips(
    _ photos: [URL], requests: Int, concurrency: Int, in folder: URL
  ) async throws -> Timings {
    try await timed(
      "vips thumbnail, a process a request", count: requests, concurrency: concurrency
    ) {
      index in
      let output = folder.appendingPathComponent("out-\(index).webp")
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/vips")
      process.arguments = [
        "thumbnail", photos[index % photos.count].path, output.path + "[Q=80,strip]", "256",
        "--height", "256",
      ]
      try process.run()
      process.waitUntilExit()
      guard process.terminationStatus == 0,
        let written = try? Data(contentsOf: output), written.starts(with: Array("RIFF".utf8))
      else { throw Failed(description: "vips thumbnail failed on request \(index)") }
      try? FileManager.default.removeItem(at: output)
    }
  }

  static func timeService(
    _ photos: [Data], requests: Int, concurrency: Int
  ) async throws -> Timings {
    // The origin and the service in this process, each on a port of its own.
    let origin = Router()
    origin.get("photo/:index") { _, context -> Response in
      let index = context.parameters.get("index", as: Int.self) ?? -1
      guard photos.indices.contains(index) else { return Response(status: .notFound) }
      return Response(
        status: .ok, headers: [.contentType: "image/jpeg"],
        body: .init(byteBuffer: ByteBuffer(data: photos[index])))
    }
    let pipeline = ImagePipeline(
      configuration: .init(
        dataLoader: AsyncHTTPClientDataLoader(), memoryCache: nil, thumbnailCache: nil))
    let route = ThumbnailRoute(pipeline: pipeline)
    let client = AsyncHTTPClientDataLoader()
    defer { Task { await client.shutdown() } }
    return try await LocalServer.with(origin) { originPort in
      // Made here: a router is not Sendable, so it cannot be captured from outside.
      let service = Router()
      service.get("thumb") { request, _ in await route.respond(to: request) }
      return try await LocalServer.with(service) { servicePort in
        try await timed("thumbnail-service over HTTP", count: requests, concurrency: concurrency) {
          index in
          let photo = "http://127.0.0.1:\(originPort)/photo/\(index % photos.count)"
          var query = URLComponents(string: "http://127.0.0.1:\(servicePort)/thumb")
          query?.queryItems = [
            URLQueryItem(name: "url", value: photo), URLQueryItem(name: "w", value: "256"),
            URLQueryItem(name: "format", value: "webp"),
          ]
          guard let url = query?.url else { throw Failed(description: "no URL") }
          let response = try await client.loadData(for: DataRequest(url: url))
          guard response.statusCode == 200, response.data.starts(with: Array("RIFF".utf8)) else {
            throw Failed(description: "request \(index): HTTP \(response.statusCode)")
          }
        }
      }
    }
  }
}
