import Foundation
import Hummingbird
import HummingbirdTesting
import TesseraTestSupport
import Testing

@testable import TesseraServer

@Suite(.timeLimit(.minutes(1))) struct FaultDecisionTests {
  @Test func decisionsAreReproducible() {
    let plan = FaultPlan(
      latency: .longTailed(median: .milliseconds(80), sigma: 1), failureRate: 0.2,
      corruptRate: 0.1, truncateRate: 0.1, wrongContentTypeRate: 0.1, hangRate: 0.05)
    for attempt in 0..<50 {
      let a = plan.decide(seed: 3, request: "GET /x?\(attempt)", attempt: attempt)
      let b = plan.decide(seed: 3, request: "GET /x?\(attempt)", attempt: attempt)
      #expect(a == b)
    }
    let seeds = (0..<50).map { plan.decide(seed: $0, request: "GET /x", attempt: 0) }
    #expect(Set(seeds.map { $0.delay }).count > 40)
  }

  @Test func ratesHoldOverManyRequests() {
    let plan = FaultPlan(failureRate: 0.25, corruptRate: 0.5)
    let decisions = (0..<2_000).map { plan.decide(seed: 11, request: "GET /p/\($0)", attempt: 0) }
    let failures = decisions.filter { $0.failure != nil }.count
    let corrupt = decisions.filter(\.corrupt).count
    #expect((400...600).contains(failures))
    #expect((900...1_100).contains(corrupt))
    let kinds = Set(decisions.compactMap(\.failure))
    #expect(kinds == Set(FaultPlan.Failure.allCases))
  }

  @Test func changingOneRateKeepsTheOtherRolls() {
    let base = FaultPlan(failureRate: 0.3)
    var more = base
    more.corruptRate = 0.5
    for id in 0..<200 {
      let a = base.decide(seed: 5, request: "GET /\(id)", attempt: 0)
      let b = more.decide(seed: 5, request: "GET /\(id)", attempt: 0)
      #expect(a.failure == b.failure)
    }
  }

  @Test func latencyKinds() {
    let fixed = FaultPlan(latency: .fixed(.milliseconds(50)))
    #expect(fixed.decide(seed: 1, request: "a", attempt: 0).delay == .milliseconds(50))
    let uniform = FaultPlan(latency: .uniform(.milliseconds(10), .milliseconds(20)))
    let delays = (0..<500).map { uniform.decide(seed: 1, request: "\($0)", attempt: 0).delay }
    #expect(delays.allSatisfy { $0 >= .milliseconds(10) && $0 <= .milliseconds(20) })
    #expect(
      delays.contains { $0 < .milliseconds(11) } && delays.contains { $0 > .milliseconds(19) })
    let tail = FaultPlan(latency: .longTailed(median: .milliseconds(100), sigma: 1))
    let tails = (0..<2_000).map { tail.decide(seed: 1, request: "\($0)", attempt: 0).delay }
      .sorted()
    let median = tails[tails.count / 2]
    #expect(median > .milliseconds(85) && median < .milliseconds(115))
    // A long tail: the slowest percent is far beyond the median.
    #expect(tails[tails.count * 99 / 100] > .milliseconds(600))
    #expect(tails.allSatisfy { $0 <= .seconds(60) })
  }

  @Test func bandwidthReservesConsecutiveSlots() async {
    let limiter = BandwidthLimiter()
    let first = await limiter.reserve(1_000, bytesPerSecond: 1_000)
    let second = await limiter.reserve(1_000, bytesPerSecond: 1_000)
    #expect(first > .milliseconds(990) && first <= .seconds(1))
    #expect(second > .milliseconds(1_900) && second <= .seconds(2))
  }

  @Test func bodyFaultsAreSeeded() {
    let body = [UInt8](repeating: 7, count: 1_000)
    var a = body
    var b = body
    BodyFaults.corrupt(&a, seed: 9)
    BodyFaults.corrupt(&b, seed: 9)
    #expect(a == b && a != body && a.count == body.count)
    var cut = body
    BodyFaults.truncate(&cut, seed: 9)
    #expect(cut.count >= 200 && cut.count <= 800)
  }
}

@Suite(.timeLimit(.minutes(1))) struct FaultRouteTests {
  static let users = "/users.json"

  func plan(_ configure: (inout FaultPlan) -> Void) -> FeedServer.Configuration {
    var plan = FaultPlan()
    configure(&plan)
    return .small(faults: plan)
  }

  @Test func serverErrors() async throws {
    try await withRouter(
      plan {
        $0.failureRate = 1; $0.failures = [.serverError]
      }
    ) { client, _ in
      let response = try await client.execute(uri: Self.users, method: .get)
      #expect(response.status == .internalServerError)
    }
  }

  @Test func notFounds() async throws {
    try await withRouter(
      plan {
        $0.failureRate = 1; $0.failures = [.notFound]
      }
    ) { client, _ in
      let response = try await client.execute(uri: Self.users, method: .get)
      #expect(response.status == .notFound)
    }
  }

  @Test func corruptBodiesKeepLengthAndValidator() async throws {
    let clean = try await withRouter { client, _ in
      try await client.execute(uri: Self.users, method: .get)
    }
    try await withRouter(plan { $0.corruptRate = 1 }) { client, _ in
      let response = try await client.execute(uri: Self.users, method: .get)
      #expect(response.status == .ok)
      #expect(response.bytes.count == clean.bytes.count)
      #expect(response.bytes != clean.bytes)
      #expect(response.headers[.eTag] == clean.headers[.eTag])
      #expect((try? json(response)) == nil)
    }
  }

  @Test func truncatedBodiesAreAPrefix() async throws {
    let clean = try await withRouter { client, _ in
      try await client.execute(uri: "/avatars/2.jpg", method: .get)
    }
    try await withRouter(plan { $0.truncateRate = 1 }) { client, _ in
      let response = try await client.execute(uri: "/avatars/2.jpg", method: .get)
      #expect(response.bytes.count < clean.bytes.count)
      #expect(Array(clean.bytes.prefix(response.bytes.count)) == response.bytes)
    }
  }

  @Test func wrongContentTypes() async throws {
    try await withRouter(plan { $0.wrongContentTypeRate = 1 }) { client, _ in
      let response = try await client.execute(uri: "/avatars/2.jpg", method: .get)
      #expect(response.status == .ok)
      #expect(response.headers[.contentType] == "text/html; charset=utf-8")
      #expect(TestImages.header(response.bytes) != nil)
    }
  }

  @Test func targetsLimitWhereFaultsApply() async throws {
    let configuration = plan {
      $0.failureRate = 1
      $0.failures = [.serverError]
      $0.targets = [.images]
    }
    try await withRouter(configuration) { client, _ in
      let users = try await client.execute(uri: Self.users, method: .get)
      let image = try await client.execute(uri: "/avatars/2.jpg", method: .get)
      #expect(users.status == .ok)
      #expect(image.status == .internalServerError)
    }
  }

  @Test func sameSeedSamePlanSameOutcomes() async throws {
    let configuration = plan {
      $0.failureRate = 0.4
      $0.failures = [.serverError, .notFound]
    }
    let run: @Sendable () async throws -> [HTTPResponse.Status] = {
      try await withRouter(configuration) { client, _ in
        var statuses: [HTTPResponse.Status] = []
        for id in 1...20 {
          statuses.append(try await client.execute(uri: "/avatars/\(id).jpg", method: .get).status)
          // A retry of the same URL is its own attempt, with its own roll.
          statuses.append(try await client.execute(uri: "/avatars/\(id).jpg", method: .get).status)
        }
        return statuses
      }
    }
    let first = try await run()
    let second = try await run()
    #expect(first == second)
    #expect(
      first.contains(.ok) && first.contains(.internalServerError) && first.contains(.notFound))
  }
}

@Suite(.serialized, .timeLimit(.minutes(2))) struct LiveFaultTests {
  @Test func droppedConnectionsFailTheTransfer() async throws {
    var plan = FaultPlan(failureRate: 1, failures: [.droppedConnection])
    plan.targets = .users
    try await withLiveServer(.small(faults: plan)) { server, _ in
      let url = try #require(server.usersURL)
      await #expect(throws: TestHTTP.Failure.self) { try await fetch(url) }
    }
  }

  @Test func hangingAnswersTimeOutAndDoNotHoldUpStop() async throws {
    let server = FeedServer(configuration: .small(faults: FaultPlan(hangRate: 1)))
    _ = try await server.start()
    let url = try #require(server.usersURL)
    let error = await #expect(throws: TestHTTP.Failure.self) { try await fetch(url, timeout: 0.5) }
    #expect(error == .timedOut)
    // One more request left hanging while the server stops: stop still returns, and the
    // client sees the connection close instead of an answer.
    let pending = Task { try await fetch(url, timeout: 30) }
    while server.routes.hangs.waiting == 0 { await Task.yield() }
    await server.stop()
    await #expect(throws: TestHTTP.Failure.self) { try await pending.value }
  }

  @Test func throttledAnswersArriveWhole() async throws {
    try await withLiveServer(.small(faults: FaultPlan(bandwidth: 4 << 20))) { server, _ in
      let url = try #require(server.imageURL(id: 3, size: "z", format: .png))
      let throttled = try await fetch(url)
      server.setFaults(.none)
      let clean = try await fetch(url)
      #expect(throttled.status == 200)
      #expect(throttled.body == clean.body)
      #expect(throttled.header("Content-Length") == String(clean.body.count))
    }
  }

  @Test func faultsChangeWhileRunning() async throws {
    try await withLiveServer { server, _ in
      let url = try #require(server.usersURL)
      #expect(try await fetch(url).status == 200)
      server.setFaults(FaultPlan(failureRate: 1, failures: [.serverError]))
      #expect(server.faults.failureRate == 1)
      #expect(try await fetch(url).status == 500)
      server.setFaults(.none)
      #expect(try await fetch(url).status == 200)
    }
  }
}
