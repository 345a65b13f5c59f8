import Foundation
import TesseraBenchSupport
import TesseraImages
import TesseraServer
import TesseraURLSession

/// The two HTTP data loaders on the same images, in the same run: `tessera serve`'s
/// `FeedServer` in-process on 127.0.0.1, its images generated once before timing (its own cache
/// then serves the bytes), each loader fetching every image with six downloads at once, the
/// pipeline's default. Rounds alternate the order so neither loader always goes first.
struct LoaderComparison {
  /// Distinct images each loader fetches per round.
  let images: Int
  /// The Flickr size suffix fetched ("b" is 1024 px, tens of KiB).
  let size: String
  let rounds = 3
  let concurrency = 6

  /// One loader's figures for one round.
  private struct Round {
    var imagesPerSecond: Double
    var latencies: Samples
    var rssGrowth: Int
    var failures: Int
    var bytes: Int
  }

  private enum Kind: String, CaseIterable {
    case urlSession = "urlsession"
    case asyncHTTPClient = "asynchttpclient"

    func make() -> any DataLoading {
      switch self {
      case .urlSession: URLSessionDataLoader(maxConnectionsPerHost: 6)
      case .asyncHTTPClient: AsyncHTTPClientDataLoader(maxConnectionsPerHost: 6)
      }
    }
  }

  func run(_ report: inout BenchReport) async throws {
    let server = FeedServer(configuration: .init(port: 0, itemCount: max(images, 1)))
    try await server.start()
    do {
      try await measure(server, &report)
    } catch {
      await server.stop()
      throw error
    }
    await server.stop()
  }

  private func measure(_ server: FeedServer, _ report: inout BenchReport) async throws {
    let urls = (1...max(images, 1)).compactMap { server.imageURL(id: $0, size: size) }
    // Generate every image once, so the timed rounds measure transport, not synthesis.
    let warm = await fetchAll(urls, with: Kind.urlSession.make())
    guard warm.failures == 0 else {
      throw BenchFailure("\(warm.failures) of \(urls.count) images failed to load while warming")
    }
    var best: [Kind: Round] = [:]
    var p99s: [Kind: [Double]] = [:]
    for round in 0..<rounds {
      let order = round.isMultiple(of: 2) ? Kind.allCases : Kind.allCases.reversed()
      for kind in order {
        let result = await fetchAll(urls, with: kind.make())
        p99s[kind, default: []].append(result.latencies.p99)
        if result.imagesPerSecond > best[kind]?.imagesPerSecond ?? -1 { best[kind] = result }
      }
    }
    for kind in Kind.allCases {
      guard let round = best[kind] else { continue }
      let p99 = (p99s[kind] ?? []).sorted()[(p99s[kind]?.count ?? 1) / 2]
      report.add("loader_\(kind.rawValue)_images_per_second", round.imagesPerSecond, "images/s")
      report.add("loader_\(kind.rawValue)_p99_ms", p99 / 1e6, "ms")
      report.add("loader_\(kind.rawValue)_median_ms", round.latencies.median / 1e6, "ms")
      report.add(
        "loader_\(kind.rawValue)_rss_growth_mib", Double(round.rssGrowth) / 1_048_576, "MiB")
      report.add("loader_\(kind.rawValue)_failures", Double(round.failures), "images")
    }
    if let ours = best[.asyncHTTPClient], let theirs = best[.urlSession] {
      // Below 1 means AsyncHTTPClient is better (time per image, latency, memory).
      report.ratio(
        "loader_asynchttpclient_vs_urlsession_time_per_image",
        ours: 1 / ours.imagesPerSecond, baseline: 1 / theirs.imagesPerSecond)
      report.ratio(
        "loader_asynchttpclient_vs_urlsession_p99",
        ours: (p99s[.asyncHTTPClient] ?? []).sorted()[rounds / 2],
        baseline: (p99s[.urlSession] ?? []).sorted()[rounds / 2])
      report.ratio(
        "loader_asynchttpclient_vs_urlsession_rss_growth",
        ours: Double(max(ours.rssGrowth, 1)), baseline: Double(max(theirs.rssGrowth, 1)))
      report.note(
        "loaders: \(urls.count) distinct \(size)-size images (\(ours.bytes / urls.count / 1024) "
          + "KiB on average) from the in-process FeedServer over 127.0.0.1, \(concurrency) at "
          + "once, \(rounds) rounds in alternating order; images/s and RSS growth from each "
          + "loader's best round, p99 the median of the rounds' p99s; ratios below 1 favour "
          + "AsyncHTTPClient")
    }
  }

  /// Fetches every URL with `loader`, `concurrency` at a time.
  private func fetchAll(_ urls: [URL], with loader: any DataLoading) async -> Round {
    _ = ProcessMemory.resetPeak()
    let before = ProcessMemory.current()
    let start = ContinuousClock.now
    var latencies = Samples()
    var failures = 0
    var bytes = 0
    await withTaskGroup(of: (Double, Int?).self) { group in
      var next = 0
      func startOne() {
        guard next < urls.count else { return }
        let url = urls[next]
        next += 1
        group.addTask {
          let begun = ContinuousClock.now
          let response = try? await loader.loadData(for: DataRequest(url: url, timeout: 30))
          let ok = response.map { (200..<300).contains($0.statusCode) } ?? false
          return ((ContinuousClock.now - begun).nanoseconds, ok ? response?.data.count : nil)
        }
      }
      for _ in 0..<concurrency { startOne() }
      while let (elapsed, size) = await group.next() {
        latencies.append(elapsed)
        if let size { bytes += size } else { failures += 1 }
        startOne()
      }
    }
    let seconds = (ContinuousClock.now - start).nanoseconds / 1e9
    return Round(
      imagesPerSecond: Double(urls.count) / max(seconds, 1e-9), latencies: latencies,
      rssGrowth: max(0, ProcessMemory.peak() - before), failures: failures, bytes: bytes)
  }
}

/// A benchmark that could not measure what it meant to.
