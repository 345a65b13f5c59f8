import Testing

@testable import TesseraServer

@Suite struct FaultParsingTests {
  @Test func latencies() throws {
    #expect(try FaultPlan.Latency(parsing: "none") == .none)
    #expect(try FaultPlan.Latency(parsing: "fixed:50ms") == .fixed(.milliseconds(50)))
    #expect(
      try FaultPlan.Latency(parsing: "uniform:10ms-1.5s")
        == .uniform(.milliseconds(10), .milliseconds(1_500)))
    #expect(
      try FaultPlan.Latency(parsing: "longtail:80ms")
        == .longTailed(median: .milliseconds(80), sigma: 1))
    #expect(
      try FaultPlan.Latency(parsing: "longtail:80ms,2")
        == .longTailed(median: .milliseconds(80), sigma: 2))
  }

  @Test(arguments: ["fixed", "fixed:fast", "uniform:1s", "uniform:2s-1s", "longtail:", "wobbly:1s"])
  func badLatenciesSayWhy(text: String) {
    #expect(throws: FaultParseError.self) { try FaultPlan.Latency(parsing: text) }
  }

  @Test func ratesTargetsAndFailures() throws {
    #expect(try parseByteRate("64k") == 65_536)
    #expect(try parseByteRate("2M") == 2 << 20)
    #expect(try parseByteRate("1000") == 1_000)
    #expect(throws: FaultParseError.self) { try parseByteRate("fast") }
    #expect(try parseRate("0.25") == 0.25)
    #expect(throws: FaultParseError.self) { try parseRate("1.5") }
    #expect(try FaultPlan.Failure.parseList("500,drop") == [.serverError, .droppedConnection])
    #expect(throws: FaultParseError.self) { try FaultPlan.Failure.parseList("503") }
    #expect(try FaultPlan.Targets(parsing: "feed,images") == [.feed, .images])
    #expect(try FaultPlan.Targets(parsing: "all") == .all)
    #expect(throws: FaultParseError.self) { try FaultPlan.Targets(parsing: "avatars") }
  }
}
