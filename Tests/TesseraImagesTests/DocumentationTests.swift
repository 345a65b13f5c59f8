import Foundation
import Logging
import TesseraImages
import TesseraTestSupport
import TesseraURLSession
import Testing

// Every code snippet of the TesseraImages documentation (the DocC catalog in
// Sources/TesseraImages/TesseraImages.docc), as a function that must compile. They are not
// run: they would reach the network. `documentationSnippetsAreCompiledHere` below fails when
// a snippet in the catalog is not found here, line for line, so the two cannot drift apart.

// MARK: - TesseraImages.md

private func overview(url: URL) async throws {
  let image = try await ImagePipeline.shared.image(for: url)
  _ = image
}

// MARK: - RequestsBytesAndProcessors.md

private actor Tokens {
  func current() -> String { "s3cret" }
}

private func headers(url: URL) async throws {
  var request = ImageRequest(url: url, targetSize: PixelSize(width: 256, height: 256))
  request.headers = ["Authorization": "Bearer s3cret"]
  let image = try await ImagePipeline.shared.image(for: request)
  _ = image
}

private func modifier(tokens: Tokens) {
  let pipeline = ImagePipeline(
    configuration: .init(requestModifier: { request in
      var signed = request
      signed.headers["Authorization"] = "Bearer \(await tokens.current())"
      return signed
    }))
  _ = pipeline
}

private func imageID(presignedURL: URL) {
  var signed = ImageRequest(url: presignedURL, targetSize: PixelSize(width: 256, height: 256))
  signed.imageID = "photo-1"
  _ = signed
}

private func bytesInAndOut(bytes: Data) async throws {
  let local = try await ImagePipeline.shared.image(
    for: ImageRequest(id: "upload-1", data: bytes, targetSize: PixelSize(width: 256, height: 256)))
  let webp: Data = try ImageEncoder.encode(local, as: .webp(quality: 80))
  _ = webp
}

private func processors(request: ImageRequest) {
  var request = request
  request.processors = [.crop(Rect(x: 0, y: 0, width: 100, height: 100)), .gaussianBlur(sigma: 2)]
  _ = request
}

private func nearIdentical(thumbnail: Image, nextFrame: Image) {
  let alike =
    PerceptualHash(of: thumbnail).distance(to: PerceptualHash(of: nextFrame))
    <= PerceptualHash.burstThreshold
  _ = alike
}

private func cachesAndTheEnd(pipeline: ImagePipeline, request: ImageRequest, thumbnail: Image) async
{
  pipeline.cache[request] = thumbnail
  await pipeline.shutdown()
}

// MARK: - GettingStarted.md: Load an image

private func loadAnImage(url: URL) async throws {
  let image = try await ImagePipeline.shared.image(for: url)
  print(image.width, image.height, image.pixels.count)  // RGBA, 4 bytes a pixel
}

private func loadAThumbnail(url: URL) async throws {
  let request = ImageRequest(
    url: url, targetSize: PixelSize(width: 256, height: 256), contentMode: .aspectFill)
  let thumbnail = try await ImagePipeline.shared.image(for: request)
  _ = thumbnail
}

private func handleErrors(
  url: URL, show: (Image) -> Void, showPlaceholder: () -> Void, showMessage: (String) -> Void
) async {
  do throws(ImagePipelineError) {
    let image = try await ImagePipeline.shared.image(for: url)
    show(image)
  } catch .badStatus(404) {
    showPlaceholder()
  } catch {
    showMessage(error.description)  // "server answered HTTP 503", "timed out", …
  }
}

// MARK: Follow a load with its task

private func followATask(url: URL) async throws {
  let task = ImagePipeline.shared.imageTask(with: url)
  Task {
    for await progress in task.progress {
      print("\(progress.completed) of \(progress.total ?? 0) bytes")
    }
  }
  let response = try await task.response
  print("loaded from the \(response.origin)")  // memory cache, disk cache, network
}

// MARK: Configure a pipeline

private func configureTheSharedPipeline() {
  ImagePipeline.shared = ImagePipeline(
    configuration: .init(
      memoryCache: MemoryCache(costLimit: 128 << 20),
      diskCache: try? DiskCache(sizeLimit: 1 << 30),
      maxConcurrentDownloads: 8,
      requestTimeout: 10,
      maxResponseBytes: 20 << 20))
}

private func chooseTheLoader() -> ImagePipeline {
  let pipeline = ImagePipeline(configuration: .init(dataLoader: URLSessionDataLoader()))
  return pipeline
}

private func passALogger() -> ImagePipeline {
  var logger = Logger(label: "tessera.images")
  logger.logLevel = .debug
  let pipeline = ImagePipeline(configuration: .init(logger: logger))
  return pipeline
}

// MARK: Prefetch what comes next

private func prefetch(upcoming: [ImageRequest]) {
  let prefetcher = ImagePrefetcher(pipeline: ImagePipeline.shared)
  prefetcher.startPrefetching(with: upcoming)  // [ImageRequest]
  // The user scrolled the other way:
  prefetcher.stopPrefetching(with: upcoming)
}

// MARK: Cancel, and reprioritise

private func reprioritiseAndCancel(pipeline: ImagePipeline, request: ImageRequest) {
  let task = pipeline.imageTask(with: request)
  task.priority = .low  // scrolled out of view: others go first
  task.cancel()  // reused for another item: stop waiting
}

private func cancelTheAwaitingTask(pipeline: ImagePipeline, request: ImageRequest) {
  let loading = Task { try await pipeline.image(for: request) }
  loading.cancel()  // the await throws ImagePipelineError.cancelled
}

@MainActor final class Cell {
  var item: Int?
  var task: ImageTask?
  var image: Image?

  func show(_ item: Int, url: URL, pipeline: ImagePipeline) {
    task?.cancel()  // the old item's image can no longer arrive
    self.item = item
    image = pipeline.cachedImage(for: ImageRequest(url: url))
    guard image == nil else { return }
    task = pipeline.loadImage(with: ImageRequest(url: url)) { [weak self] result in
      guard let self, self.item == item else { return }  // reused since: not ours
      self.image = try? result.get()
    }
  }
}

// MARK: Cache on disk

private func cacheOnDisk(url: URL) throws {
  let disk = try DiskCache(
    directory: URL(fileURLWithPath: "/var/cache/myapp/images"), sizeLimit: 256 << 20)
  let pipeline = ImagePipeline(configuration: .init(diskCache: disk))
  let offline = ImageRequest(url: url, cachePolicy: .onlyFromCache)  // never the network
  _ = (pipeline, offline)
}

// MARK: Know which sources are trusted

private func loadFromALocalFolder(fileURL: URL) async throws {
  let photo = ImageRequest(url: fileURL, source: .localFolder)
  let image = try await ImagePipeline.shared.image(for: photo)
  _ = image
}

// MARK: - The check

@Suite(.timeLimit(.minutes(1))) struct DocumentationSnippetTests {
  /// Each ```swift block of the catalog appears in this file as it is, whitespace aside
  /// (the formatter may indent or wrap it differently here).
  @Test func documentationSnippetsAreCompiledHere() throws {
    let here = URL(fileURLWithPath: #filePath)
    let root = here.deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let catalog = root.appendingPathComponent("Sources/TesseraImages/TesseraImages.docc")
    let pages = try FileManager.default.contentsOfDirectory(
      at: catalog, includingPropertiesForKeys: nil
    ).filter { $0.pathExtension == "md" }
    #expect(pages.count >= 2)
    let code = MarkdownSnippets.squeezed(try String(contentsOf: here, encoding: .utf8))
    var snippets = 0
    for page in pages {
      for snippet in MarkdownSnippets.swiftBlocks(in: try String(contentsOf: page, encoding: .utf8))
      {
        snippets += 1
        #expect(
          code.contains(MarkdownSnippets.squeezed(snippet)),
          "not in DocumentationTests.swift (\(page.lastPathComponent)):\n\(snippet)")
      }
    }
    #expect(snippets >= 10)
  }
}
