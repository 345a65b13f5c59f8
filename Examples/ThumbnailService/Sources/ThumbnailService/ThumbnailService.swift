import Foundation
import Hummingbird
import TesseraImages
import ThumbnailKit

/// `thumbnail-service [PORT]`: serves `/thumb` on 127.0.0.1 (port 0: one the system picks),
/// printing its address once it listens; runs until interrupted, then shuts the pipeline
/// down with the server.
@main
struct ThumbnailService {
  static func main() async throws {
    let arguments = CommandLine.arguments.dropFirst()
    guard arguments.count <= 1, let port = Int(arguments.first ?? "8090"),
      (0...65_535).contains(port)
    else {
      FileHandle.standardError.write(Data("usage: thumbnail-service [PORT]\n".utf8))
      exit(2)
    }
    // Thumbnails are made from the network's images: no thumbnail folders, a memory cache.
    let pipeline = ImagePipeline(
      configuration: .init(
        dataLoader: AsyncHTTPClientDataLoader(), memoryCache: MemoryCache(),
        thumbnailCache: nil))
    let route = ThumbnailRoute(pipeline: pipeline)
    let router = Router()
    router.get("thumb") { request, _ in await route.respond(to: request) }
    let app = Application(
      router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
      services: [ImagePipelineService(pipeline)],
      onServerRunning: { channel in
        // Written at once, not buffered: a script waits for this line to know the port.
        let line = "listening on http://127.0.0.1:\(channel.localAddress?.port ?? port)/\n"
        FileHandle.standardOutput.write(Data(line.utf8))
      })
    try await app.runService()
  }
}
