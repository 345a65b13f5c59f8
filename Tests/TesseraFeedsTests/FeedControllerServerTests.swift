import Foundation
import TesseraPhotoFormats
import TesseraPhotoLibrary
import TesseraServer
import TesseraTestSupport
import Testing

@testable import TesseraFeeds

/// The controller against the real feed server on a loopback port.
@MainActor
@Suite(.serialized, .timeLimit(.minutes(2))) struct FeedControllerServerTests {
  static let configuration = FeedServer.Configuration(itemCount: 60, userCount: 30, seed: 5)

  func withServer(
    _ configuration: FeedServer.Configuration = configuration,
    _ body: (FeedServer) async throws -> Void
  ) async throws {
    let server = FeedServer(configuration: configuration)
    _ = try await server.start()
    do {
      try await body(server)
    } catch {
      await server.stop()
      throw error
    }
    await server.stop()
  }

  func photos(
    _ server: FeedServer, perPage: Int = 25, timeout: Duration = .seconds(10)
  ) throws
    -> FeedController<FlickrFeedSource>
  {
    // The server's own feed URL already carries a query; the source replaces what it sets.
    let feed = try #require(server.feedURL)
    return FeedController(
      source: FlickrFeedSource(
        feedURL: feed, perPage: perPage, fetcher: HTTPFetcher(timeout: timeout)))
  }

  @Test func loadsAndPagesThroughTheWholeFeed() async throws {
    try await withServer { server in
      let controller = try photos(server)
      await controller.load()
      #expect(controller.state == .loaded)
      #expect(controller.count == 25)
      await controller.loadNextPage()
      await controller.loadNextPage()
      #expect(controller.count == 60)
      #expect(!controller.hasMorePages)
      #expect(controller.skipped.isEmpty)
      #expect(Set(controller.viewModels.map(\.id)).count == 60)
      // The server's feed carries Flickr's `\'` quirk; it parsed anyway.
      #expect(controller.viewModels.contains { $0.title.contains("'") })
      #expect(controller.viewModels.contains { $0.title == "Untitled" })
    }
  }

  @Test func mediaURLsAskForTheCoveringSizeAndCarryTheMarker() async throws {
    try await withServer { server in
      let controller = try photos(server, perPage: 5)
      await controller.load()
      for model in controller.viewModels {
        let aspect = try #require(model.aspectRatio)
        #expect(aspect >= 0.5 && aspect <= 2)
        let url = model.mediaURL(covering: 300, 300)
        #expect(
          url.lastPathComponent.contains("_n.") || url.lastPathComponent.contains("_w.")
            || url.lastPathComponent.contains("_z.") || !url.lastPathComponent.contains("_m."))
        let answer = try await TestHTTP.get(url)
        #expect(answer.status == 200)
        let data = answer.body
        let size = try #require(ImageHeader.pixelSize(Array(data)))
        #expect(size.width >= 300 && size.height >= 300)
      }
    }
  }

  @Test func serverFailureThenRefreshRecovers() async throws {
    var configuration = Self.configuration
    configuration.faults = FaultPlan(failureRate: 1, failures: [.serverError], targets: .feed)
    try await withServer(configuration) { server in
      let controller = try photos(server)
      var states: [FeedController<FlickrFeedSource>.State] = []
      controller.onChange = { if $0 == .state { states.append(controller.state) } }
      await controller.load()
      #expect(controller.state == .failed("Can't retrieve photos: the server answered 500"))
      server.setFaults(.none)
      await controller.refresh()
      #expect(controller.state == .loaded)
      #expect(controller.count == 25)
      #expect(
        states == [
          .loading, .failed("Can't retrieve photos: the server answered 500"), .loading, .loaded,
        ])
    }
  }

  @Test func usersLoadAsContacts() async throws {
    try await withServer { server in
      let url = try #require(server.usersURL)
      let controller = FeedController(source: UsersFeedSource(url: url))
      await controller.load()
      #expect(controller.state == .loaded)
      #expect(controller.count == 30)
      let roles = Set(controller.viewModels.map(\.role))
      #expect(roles.contains(.user) && roles.contains(.unknown))
      #expect(controller.viewModels.allSatisfy { !$0.initials.isEmpty })
      server.setFaults(FaultPlan(failureRate: 1, failures: [.notFound], targets: .users))
      await controller.refresh()
      #expect(controller.state == .failed("Can't retrieve contacts: the server answered 404"))
      #expect(controller.count == 30)
    }
  }

  @Test func brokenBodiesAreNotJSON() async throws {
    try await withServer { server in
      let controller = try photos(server)
      server.setFaults(FaultPlan(truncateRate: 1, targets: .feed))
      await controller.load()
      guard case .notJSON = controller.lastError else {
        Issue.record("expected notJSON, got \(String(describing: controller.lastError))")
        return
      }
      server.setFaults(FaultPlan(corruptRate: 1, targets: .feed))
      await controller.refresh()
      guard case .notJSON = controller.lastError else {
        Issue.record("expected notJSON, got \(String(describing: controller.lastError))")
        return
      }
    }
  }

  @Test func aWrongContentTypeStillParses() async throws {
    try await withServer { server in
      server.setFaults(FaultPlan(wrongContentTypeRate: 1, targets: .feed))
      let controller = try photos(server)
      await controller.load()
      #expect(controller.state == .loaded)
    }
  }

  @Test func hangingServerTimesOut() async throws {
    try await withServer { server in
      server.setFaults(FaultPlan(hangRate: 1, targets: .feed))
      let controller = try photos(server, timeout: .milliseconds(300))
      await controller.load()
      #expect(controller.lastError == .timedOut)
      #expect(
        controller.state == .failed("Can't retrieve photos: the server did not answer in time"))
    }
  }

  /// The hang fault never answers; with the idle timeout at a minute, only the overall
  /// deadline can end the load.
  @Test func theDeadlineEndsAHangingFeed() async throws {
    try await withServer { server in
      server.setFaults(FaultPlan(hangRate: 1, targets: .feed))
      let feed = try #require(server.feedURL)
      let controller = FeedController(
        source: FlickrFeedSource(
          feedURL: feed,
          fetcher: HTTPFetcher(timeout: .seconds(60), deadline: .milliseconds(300))))
      await controller.load()
      #expect(controller.lastError == .timedOut)
    }
  }

  /// A refresh while the first load hangs: the hanging request is cancelled (its load returns
  /// at once instead of waiting for a timeout) and the refresh's answer is shown.
  @Test func aRefreshCancelsAHangingLoad() async throws {
    try await withServer { server in
      server.setFaults(FaultPlan(hangRate: 1, targets: .feed))
      // Neither an idle timeout nor the deadline could end the hang within the time limit.
      let controller = FeedController(
        source: FlickrFeedSource(
          feedURL: try #require(server.feedURL), perPage: 25,
          fetcher: HTTPFetcher(timeout: .seconds(3_600), deadline: .seconds(3_600))))
      let first = Task { await controller.load() }
      while server.hangingRequestCount == 0 { await Task.yield() }
      server.setFaults(.none)
      await controller.refresh()
      await first.value
      #expect(controller.state == .loaded)
      #expect(controller.count == 25)
    }
  }

  @Test func droppedConnectionIsANetworkError() async throws {
    try await withServer { server in
      server.setFaults(FaultPlan(failureRate: 1, failures: [.droppedConnection], targets: .feed))
      let controller = try photos(server)
      await controller.load()
      guard case .network = controller.lastError else {
        Issue.record("expected a network error, got \(String(describing: controller.lastError))")
        return
      }
    }
  }

  @Test func stoppedServerCannotBeReached() async throws {
    let server = FeedServer(configuration: Self.configuration)
    let url = try await server.start()
    let controller = try photos(server)
    await server.stop()
    // The port stays free of other tests' servers (one took it once and reset the connection).
    let holder = try #require(
      LoopbackSocket.reserve(port: url.port ?? 0), "another test took the stopped server's port")
    defer { close(holder) }
    await controller.load()
    #expect(controller.lastError == .network("can't connect to the server"))
  }
}
