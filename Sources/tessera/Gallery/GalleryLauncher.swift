import Foundation
import TesseraFeeds
import TesseraImages
import TesseraServer
import TesseraTerminal

/// Sets up what the gallery runs on — the feed (embedded server, URL or folder), the image
/// pipeline and the terminal — runs it, and takes it down again.
@MainActor
struct GalleryLauncher {
  let options: Gallery

  func launch() async throws {
    guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
      throw GalleryError(
        description: "tessera gallery needs a terminal (stdin and stdout must be a TTY)")
    }
    var server: FeedServer?
    let feed = try await makeFeed(startingServer: &server)
    do {
      try await show(feed)
    } catch {
      await server?.stop()
      throw error
    }
    await server?.stop()
  }

  /// Runs the screen until the person quits; the terminal is restored however it ends.
  private func show(_ feed: GalleryFeed) async throws {
    let pipeline = ImagePipeline(configuration: pipelineConfiguration())
    let session = try TerminalSession()
    defer { session.restore() }
    let capabilities = session.detectCapabilities(override: options.graphics)
    let renderer = TerminalRenderer(capabilities: capabilities)
    let size = session.size()
    let cellPixels =
      capabilities.graphics == .blocks ? PixelSize(width: 1, height: 2) : capabilities.cellPixelSize
    let screen = GalleryScreen(
      feed: feed, pipeline: pipeline, layout: options.layout, columns: options.columns,
      width: size.columns, height: size.rows, cellPixels: cellPixels)
    await GalleryRunLoop(session: session, renderer: renderer, screen: screen).run()
  }

  private func pipelineConfiguration() -> ImagePipeline.Configuration {
    let disk = options.noDiskCache ? nil : try? DiskCache()
    return ImagePipeline.Configuration(diskCache: disk, requestTimeout: 15)
  }

  private func makeFeed(startingServer server: inout FeedServer?) async throws -> GalleryFeed {
    if let dir = options.dir {
      let folder = URL(fileURLWithPath: dir)
      return GalleryFeed(
        title: "photos in \(folder.path)",
        controller: FeedController(source: FolderFeedSource(folder: folder)),
        imageSource: .localFolder,
        item: GalleryItem.init(photo:))
    }
    if let feed = options.feed {
      let url = try Self.httpURL(feed, option: "--feed")
      return GalleryFeed(
        title: "photos from \(url.host ?? feed)",
        controller: FeedController(source: FlickrFeedSource(feedURL: url)),
        item: GalleryItem.init(photo:))
    }
    if let users = options.users, users != "embedded" {
      let url = try Self.httpURL(users, option: "--users")
      return GalleryFeed(
        title: "users from \(url.host ?? users)",
        controller: FeedController(source: UsersFeedSource(url: url)),
        item: GalleryItem.init(user:))
    }
    let embedded = FeedServer(
      configuration: .init(
        port: 0, itemCount: options.items,
        faults: FaultPlan(
          latency: try FaultPlan.Latency(parsing: options.latency),
          failureRate: options.failureRate)))
    server = embedded
    let base = try await embedded.start()
    guard let feedURL = embedded.feedURL, let usersURL = embedded.usersURL else {
      throw GalleryError(description: "the embedded server started without an address")
    }
    if options.users == "embedded" {
      return GalleryFeed(
        title: "users on the embedded server \(base.absoluteString)",
        controller: FeedController(source: UsersFeedSource(url: usersURL)),
        item: GalleryItem.init(user:))
    }
    return GalleryFeed(
      title: "photos on the embedded server \(base.absoluteString)",
      controller: FeedController(source: FlickrFeedSource(feedURL: feedURL, perPage: 500)),
      item: GalleryItem.init(photo:))
  }

  nonisolated static func httpURL(_ text: String, option: String) throws -> URL {
    guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https",
      url.host != nil
    else { throw GalleryError(description: "\(option) needs an http(s) URL, got “\(text)”") }
    return url
  }
}
