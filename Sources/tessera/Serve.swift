import ArgumentParser
import Dispatch
import Foundation
import TesseraServer

struct Serve: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Run the feed + image server (generated images, fault injection) on 127.0.0.1.",
    discussion: """
      Prints the URL it listens on (http://127.0.0.1:PORT/) as the first line of standard \
      output, then serves until SIGINT or SIGTERM. Faults are seeded: the same flags and seed \
      misbehave the same way on every run.
      """
  )

  @Option(help: "Address to bind.") var host = "127.0.0.1"
  @Option(help: "Port to listen on; 0 picks any free port.") var port = 8080
  @Option(help: "Photos in the feed.") var items = 10_000
  @Option(help: "Users in /users.json.") var users = 1_000
  @Option(help: "Seed of everything generated and of the faults.") var seed: UInt64 = 1
  @Option(name: .customLong("cache-mib"), help: "Memory for encoded images, in MiB.")
  var cacheMiB = 256
  @Option(help: "none | fixed:50ms | uniform:10ms-200ms | longtail:80ms[,SIGMA]")
  var latency = "none"
  @Option(help: "Shared bandwidth in bytes per second (64k, 2M).") var bandwidth: String?
  @Option(help: "Fraction of requests that fail (0…1).") var failureRate = "0"
  @Option(help: "How failures fail: any of 500,404,drop.") var failures = "500,404,drop"
  @Option(help: "Fraction of bodies corrupted.") var corruptRate = "0"
  @Option(help: "Fraction of bodies truncated.") var truncateRate = "0"
  @Option(help: "Fraction of answers with a wrong Content-Type.") var wrongTypeRate = "0"
  @Option(help: "Fraction of requests never answered.") var hangRate = "0"
  @Option(help: "Routes faults apply to: feed,users,images or all.") var faultTargets = "all"
  @Flag(help: "Write `'` plainly instead of Flickr's invalid `\\'`.") var validJSON = false
  @Option(
    name: .customLong("public-url"),
    help:
      "Where clients reach the server (a cache or proxy): every link in the feed starts with it.")
  var publicURL: String?
  @Option(
    name: .customLong("trusted-proxy"),
    help: ArgumentHelp(
      "A proxy (IP address or CIDR block) whose Forwarded and X-Forwarded-* headers are "
        + "believed; repeatable.",
      valueName: "address"))
  var trustedProxies: [String] = []

  func validate() throws {
    guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0…65535") }
    guard items >= 0, users >= 0 else { throw ValidationError("counts must not be negative") }
    guard cacheMiB >= 0 else { throw ValidationError("--cache-mib must not be negative") }
    _ = try faultPlan()
    _ = try links()
  }

  /// The feed's link settings, each value checked; the reason for the first bad one.
  func links() throws -> LinkOrigin {
    do throws(LinkSettingError) {
      var links = LinkOrigin()
      if let publicURL { links.publicURL = try PublicURL(parsing: publicURL) }
      for text in trustedProxies {
        links.trustedProxies.append(try IPAddressRange(parsing: text))
      }
      return links
    } catch {
      throw ValidationError(error.description)
    }
  }

  func faultPlan() throws -> FaultPlan {
    do throws(FaultParseError) {
      return FaultPlan(
        latency: try FaultPlan.Latency(parsing: latency),
        bandwidth: try bandwidth.map(parseByteRate),
        failureRate: try parseRate(failureRate),
        failures: try FaultPlan.Failure.parseList(failures),
        corruptRate: try parseRate(corruptRate),
        truncateRate: try parseRate(truncateRate),
        wrongContentTypeRate: try parseRate(wrongTypeRate),
        hangRate: try parseRate(hangRate),
        targets: try FaultPlan.Targets(parsing: faultTargets))
    } catch {
      throw ValidationError(error.description)
    }
  }

  func run() async throws {
    let plan = try faultPlan()
    let server = FeedServer(
      configuration: .init(
        host: host, port: port, itemCount: items, userCount: users, faults: plan, seed: seed,
        imageCacheBytes: cacheMiB << 20, escapesApostrophes: !validJSON, links: try links()))
    let url = try await server.start()
    // Unbuffered: a parent process reads this first line to learn the port.
    FileHandle.standardOutput.write(Data((url.absoluteString + "\n").utf8))
    let note =
      "serving \(items) photos and \(users) users, seed \(seed), \(plan); stop with Ctrl-C\n"
    FileHandle.standardError.write(Data(note.utf8))
    let signal = await TerminationSignal.next()
    FileHandle.standardError.write(Data("stopping (signal \(signal))\n".utf8))
    await server.stop()
  }
}

/// Waits for SIGINT or SIGTERM, which stop the server cleanly instead of killing it.
enum TerminationSignal {
  static func next() async -> Int32 {
    let (stream, continuation) = AsyncStream<Int32>.makeStream()
    let sources = [SIGINT, SIGTERM].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { continuation.yield(number) }
      source.resume()
      return source
    }
    var received: Int32 = 0
    for await number in stream {
      received = number
      break
    }
    sources.forEach { $0.cancel() }
    return received
  }
}
