import Foundation

/// TesseraServer's readers of outside input: fault settings from the command line, and the
/// query and file names of requests. Never trap; what is accepted is within `ServerLimits`.
extension FuzzHarnesses {
  static let moduleHarnesses: [String: @Sendable (UnsafeRawBufferPointer) -> Void] = [
    // Lines of fault settings as `tessera serve` takes them: latency, bandwidth, a rate,
    // failures, targets, then an attempt number. Each parses within its limits or throws, and
    // the plan built from them decides delays within an hour.
    "fault-plan": { bytes in
      let lines = String(decoding: bytes, as: UTF8.self).split(
        separator: "\n", omittingEmptySubsequences: false
      ).map(String.init)
      func line(_ index: Int) -> String { index < lines.count ? lines[index] : "" }
      var plan = FaultPlan()
      if let latency = try? FaultPlan.Latency(parsing: line(0)) { plan.latency = latency }
      if let duration = try? parseDuration(line(0)) {
        precondition(duration >= .zero && duration <= ServerLimits.maxLatency)
      }
      if let bandwidth = try? parseByteRate(line(1)) {
        precondition(ServerLimits.bandwidths.contains(bandwidth))
        plan.bandwidth = bandwidth
      }
      if let rate = try? parseRate(line(2)) {
        precondition(ServerLimits.rates.contains(rate))
        plan.failureRate = rate
        plan.hangRate = rate
      }
      if let failures = try? FaultPlan.Failure.parseList(line(3)) { plan.failures = failures }
      if let targets = try? FaultPlan.Targets(parsing: line(4)) { plan.targets = targets }
      let attempt = Int(line(5)) ?? bytes.count
      for request in ["GET /", "GET " + line(5)] {
        let decision = plan.decide(seed: UInt64(bytes.count), request: request, attempt: attempt)
        precondition(decision.delay >= .zero && decision.delay <= ServerLimits.maxLatency)
      }
      _ = plan.description
    },
    // A request's query string and file name: the feed query is refused or renders a page of
    // at most `per_page` items that parses as JSON; image names resolve only to catalog ids.
    "feed-query": { bytes in
      let text = String(decoding: bytes, as: UTF8.self)
      let pairs = text.split(separator: "&").map { $0.split(separator: "=", maxSplits: 1) }
      let parameter = { (name: String) -> String? in
        pairs.first { $0.first.map(String.init) == name }.map { $0.count > 1 ? String($0[1]) : "" }
      }
      let catalog = ServerHarnessSupport.catalog
      if let query = try? FeedQuery(parameter) {
        precondition(query.page >= 1 && (1...ServerLimits.maxPerPage).contains(query.perPage))
        let json = FeedDocument.render(
          query, catalog: catalog, base: "http://127.0.0.1/", escapesApostrophes: false)
        let body = query.jsonp ? String(json.dropFirst("jsonFlickrFeed(".count).dropLast()) : json
        let root = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        let items = root?["items"] as? [Any]
        precondition(items != nil && items!.count <= query.perPage)
      }
      for name in [text, text.split(separator: "/").last.map(String.init) ?? ""] {
        if let photo = ImageFileName.photo(name, catalog: catalog) {
          precondition(catalog.contains(id: photo.id))
        }
        if let avatar = ImageFileName.avatar(name, userCount: catalog.userCount) {
          precondition((1...catalog.userCount).contains(avatar.id))
        }
      }
    },
  ]
}

/// One small catalog for every input (building it is the slow part).
enum ServerHarnessSupport {
  static let catalog = Catalog(
    seed: 7, itemCount: 120, userCount: 24, newest: Date(timeIntervalSince1970: 1_717_243_200))
}
