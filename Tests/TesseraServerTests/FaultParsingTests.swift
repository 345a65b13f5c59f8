import Testing

@testable import TesseraServer

@Suite(.timeLimit(.minutes(1))) struct FaultParsingTests {
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

/// Fault settings are outside input: every number is checked against `ServerLimits` before it
/// becomes a `Duration` or an `Int`, and a plan built in code with absurd values never traps.
@Suite(.timeLimit(.minutes(1))) struct FaultLimitTests {
  @Test(arguments: [
    "1e300s", "1e300ms", "3601s", "61m", "1e20us", "infs", "nans", "-1s", "s", "1e309s",
    "99999999999999999999999m",
  ])
  func durationsBeyondAnHourOrNotNumbersAreRefused(text: String) {
    #expect(throws: FaultParseError.self) { try parseDuration(text) }
    #expect(throws: FaultParseError.self) { try FaultPlan.Latency(parsing: "fixed:" + text) }
  }

  @Test func anHourIsTheLongest() throws {
    #expect(try parseDuration("60m") == .seconds(3_600))
    #expect(try parseDuration("3600s") == .seconds(3_600))
    #expect(try parseDuration("0ms") == .zero)
    #expect(
      throws: FaultParseError(description: "“3601s” is longer than an hour")
    ) { try parseDuration("3601s") }
  }

  @Test(arguments: ["0", "0.5", "-1", "nan", "inf", "1e300", "1e300k", "65G", "65m", ""])
  func bandwidthsOutsideTheLimitsAreRefused(text: String) throws {
    if text == "65m" {
      #expect(try parseByteRate(text) == 65 << 20)
      return
    }
    #expect(throws: FaultParseError.self) { try parseByteRate(text) }
  }

  @Test func theLargestBandwidthIsAccepted() throws {
    #expect(try parseByteRate("\(64 << 30)") == 64 << 30)
    #expect(throws: FaultParseError.self) { try parseByteRate("\((64 << 30) + 1)") }
  }

  @Test(arguments: ["nan", "-0.1", "1.0000001", "inf", "-inf", "1e300", "", "0x1p-1"])
  func ratesOutsideZeroToOneAreRefused(text: String) throws {
    if text == "0x1p-1" {
      #expect(try parseRate(text) == 0.5)
      return
    }
    #expect(throws: FaultParseError.self) { try parseRate(text) }
  }

  @Test(arguments: [
    "longtail:80ms,nan", "longtail:80ms,inf", "longtail:80ms,-1", "longtail:80ms,5",
  ])
  func longTailSpreadsOutsideZeroToFourAreRefused(text: String) {
    #expect(throws: FaultParseError.self) { try FaultPlan.Latency(parsing: text) }
  }

  /// Plans made in code are not parsed: their decisions clamp whatever they hold.
  @Test(arguments: [
    FaultPlan.Latency.fixed(.seconds(1e15)), .fixed(.seconds(-5)),
    .uniform(.seconds(1e15), .seconds(1)), .uniform(.seconds(-9), .seconds(-1)),
    .longTailed(median: .seconds(1e15), sigma: .infinity),
    .longTailed(median: .seconds(1), sigma: .nan), .longTailed(median: .seconds(-1), sigma: 4),
    .longTailed(median: .seconds(3_600), sigma: 1e300),
  ])
  func decisionsStayWithinAnHour(latency: FaultPlan.Latency) {
    let plan = FaultPlan(latency: latency)
    for attempt in [0, 1, 2, Int.max, Int.min] {
      let delay = plan.decide(seed: 3, request: "GET /x", attempt: attempt).delay
      #expect(delay >= .zero && delay <= ServerLimits.maxLatency, "\(latency) \(delay)")
    }
  }
}
