import Foundation
import TesseraFeeds
import TesseraImages
import TesseraPhotoLibrary
import TesseraServer
import TesseraTerminal
import TesseraUtilities

/// Sets up what the gallery runs on — the feed (embedded server, URL or folder), the image
/// pipeline and the terminal — runs it, and takes it down again.
@MainActor
package struct GalleryLauncher {
  let options: any GalleryOptions

  package init(options: any GalleryOptions) {
    self.options = options
  }

  package func launch() async throws {
    // The gallery draws on the terminal itself, so standard input and output stay free for
    // paths in (`-i`) and out (`-o`, `--pick`): `find … | tessera -i -o | xargs …`.
    let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
    guard tty >= 0, isatty(tty) == 1 else {
      throw GalleryError(description: "tessera gallery needs a terminal (/dev/tty)")
    }
    defer { close(tty) }
    var given: StandardInputWalker?
    if options.readStdin {
      guard isatty(STDIN_FILENO) == 0 else {
        throw GalleryError(
          description: "-i reads the files to show from standard input: pipe them in "
            + "(find ~/Pictures -name '*.jpg' | tessera -i)")
      }
      // Walked as it arrives, on the library's walking thread: the first photos show while
      // the program writing the names still runs.
      given = StandardInputWalker(
        descriptor: STDIN_FILENO, nullSeparated: options.nullSeparated,
        report: StandardInputReport())
    }
    var server: FeedServer?
    let feed = try await makeFeed(startingServer: &server, given: given)
    let printed: [String]?
    // Nothing a library prints may reach the screen the gallery draws: standard error goes
    // to a log while it runs, and one line after says where, when anything was written.
    let errorLog = StandardErrorLog()
    let restoreStandardError = {
      guard let errorLog else { return }
      let written = errorLog.stop()
      if let line = errorLog.summary(kept: written.kept, dropped: written.dropped) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
      }
    }
    do {
      printed = try await show(feed, on: tty, standardInput: given?.report)
    } catch {
      restoreStandardError()
      await server?.stop()
      throw error
    }
    restoreStandardError()
    await server?.stop()
    if options.printMarked || options.pick, let printed, !printed.isEmpty {
      // Each path as its own bytes, a name that is not UTF-8 too (`FileSystemName`).
      let separator: UInt8 = options.nullSeparated ? 0 : 0x0A
      FileHandle.standardOutput.write(
        Data(printed.flatMap { FileSystemName.bytes(of: $0) + [separator] }))
    }
  }

  /// Runs the screen on the terminal `tty` until the person quits; the terminal is restored
  /// however it ends. Returns the paths to print (`q`, a pick), nil after Ctrl-C.
  private func show(
    _ feed: GalleryFeed, on tty: Int32, standardInput: StandardInputReport?
  ) async throws -> [String]? {
    // The feed starts loading first: a folder's walk (and a second look's stored facts) go on
    // on their own thread while the terminal answers its capability queries, a round trip
    // that over SSH is the network's. Its batches reach the main actor once the screen exists.
    let feedLoad = Task { await feed.load() }
    defer { feedLoad.cancel() }
    await Task.yield()
    let pipeline = ImagePipeline(configuration: pipelineConfiguration(for: feed.imageSource))
    let session = try TerminalSession(input: tty, output: tty)
    defer { session.restore() }
    let capabilities = session.detectCapabilities(override: options.graphics)
    let renderer = TerminalRenderer(capabilities: capabilities)
    let size = session.size()
    let cellPixels =
      capabilities.graphics == .blocks ? PixelSize(width: 1, height: 2) : capabilities.cellPixelSize
    let screen = GalleryScreen(
      feed: feed, pipeline: pipeline, layout: options.layout, columns: options.columns,
      width: size.columns, height: size.rows, cellPixels: cellPixels,
      // Half blocks are requested 1×2 per cell, and drawn in the cell's real shape.
      cellAspect: Double(capabilities.cellPixelSize.height)
        / Double(max(1, capabilities.cellPixelSize.width)),
      tileShape: TileShape(argument: options.tiles) ?? .auto(decided: nil))
    // `y` copies through OSC 52, written between frames like any other output.
    screen.services.writeToTerminal = { session.write($0) }
    screen.choices.picking = options.pick
    screen.stacks.enabled = !options.noStacks
    screen.services.keyHandler = KeyHandler(nullSeparated: options.nullSeparated)
    if let filter = options.filter, !filter.isEmpty {
      screen.updateFilter { $0.query = filter }
      screen.modes.lastQuery = filter
    }
    if let seconds = options.slideshow {
      screen.modes.slideshow.interval = .milliseconds(Int(seconds * 1000))
      screen.modes.slideshow.startsWithItems = true
    }
    // What would make images work here (tmux's passthrough off), or what standard input held
    // that is not a photo, said once.
    screen.status.message = capabilities.advice.first
    standardInput?.whenFinished { notice in
      guard let notice else { return }
      Task { @MainActor in
        screen.status.message = notice
        screen.needsDisplay = true
      }
    }
    await GalleryRunLoop(
      session: session, renderer: renderer, screen: screen, capabilities: capabilities
    ).run()
    return screen.choices.exitPaths
  }

  private func pipelineConfiguration(
    for source: ImageRequest.Source
  ) -> ImagePipeline.Configuration {
    // --no-disk-cache writes nothing: neither downloads nor shared thumbnails. A folder has
    // nothing to download (its thumbnails are the shared folders'): no download cache.
    let disk = options.noDiskCache || source == .localFolder ? nil : try? DiskCache()
    let thumbnails = options.noDiskCache ? nil : ThumbnailCache()
    return ImagePipeline.Configuration(
      diskCache: disk, thumbnailCache: thumbnails, requestTimeout: 15)
  }

  private func makeFeed(
    startingServer server: inout FeedServer?, given: StandardInputWalker?
  ) async throws -> GalleryFeed {
    let users: Bool
    if let given {
      let options = options
      return GalleryFeed(title: "photos from standard input") {
        PhotoLibrary(
          walker: given,
          ordering: PhotoOrdering(
            sort: options.sort ?? .given, reverse: options.reverse, grouping: options.sections),
          facts: options.noDiskCache ? nil : PhotoFactsStore())
      }
    }
    switch try GallerySources(options: options) {
    case .local(let paths):
      let options = options
      let title = paths.count == 1 ? paths[0] : "\(paths[0]) and \(paths.count - 1) more"
      return GalleryFeed(title: "photos in \(title)") {
        PhotoLibrary(
          walker: FolderWalker(
            roots: paths, maxDepth: options.depth, includeHidden: options.hidden,
            includeVideos: !options.noVideos),
          ordering: PhotoOrdering(
            sort: options.sort ?? .taken, reverse: options.reverse, grouping: options.sections),
          // --no-disk-cache keeps no facts either: every header is read each launch.
          facts: options.noDiskCache ? nil : PhotoFactsStore())
      }
    case .feed(let url):
      return GalleryFeed(
        title: "photos from \(url.host ?? url.absoluteString)",
        controller: FeedController(source: FlickrFeedSource(feedURL: url)),
        item: GalleryItem.init(photo:))
    case .users(let url):
      return GalleryFeed(
        title: "users from \(url.host ?? url.absoluteString)",
        controller: FeedController(source: UsersFeedSource(url: url)),
        item: GalleryItem.init(user:))
    case .embedded(let embeddedUsers):
      users = embeddedUsers
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
    if users {
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
}
