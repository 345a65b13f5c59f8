import Foundation
import Logging
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraImages

/// Records what a logger is told, for the tests to read.
final class CapturedLog: Sendable {
  struct Record: Sendable {
    var level: Logger.Level
    var message: String
    var metadata: [String: String]
  }

  private let records = Locked<[Record]>([])

  var all: [Record] { records.withLock { $0 } }

  /// A logger at trace level whose lines land here.
  func logger() -> Logger {
    Logger(label: "tessera.images") { _ in Handler(log: self) }
  }

  func append(_ record: Record) { records.withLock { $0.append(record) } }

  private struct Handler: LogHandler {
    let log: CapturedLog
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
      get { metadata[key] }
      set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
      let fields = (event.metadata ?? [:]).mapValues { "\($0)" }
      log.append(Record(level: event.level, message: "\(event.message)", metadata: fields))
    }
  }
}

/// The pipeline says what went wrong through swift-log, at debug level only (swift-log's
/// default handler prints info and above, which a library must not do unasked).
@Suite(.timeLimit(.minutes(1))) struct LoggingTests {
  @Test func refusalsAndFailuresAreLoggedAtDebugOncePerLoad() async {
    let log = CapturedLog()
    let loader = HeldDataLoader { request in
      switch request.url.lastPathComponent {
      case "drawing.svg": .success(Fixtures.ok(TestImages.svg(), type: "image/svg+xml"))
      default: .success(DataResponse(statusCode: 503))
      }
    }
    let pipeline = makePipeline(loader, logger: log.logger())
    let svg = pipeline.imageTask(with: Fixtures.request("drawing.svg"))
    let down = pipeline.imageTask(with: Fixtures.request("down.png"))
    let downAgain = pipeline.imageTask(with: Fixtures.request("down.png"))  // joins: one line
    let local = pipeline.imageTask(
      with: ImageRequest(url: URL(fileURLWithPath: "/etc/passwd")))
    for task in [svg, down, downAgain, local] { _ = try? await task.image }
    let records = log.all
    #expect(records.allSatisfy { $0.level == .debug })
    #expect(records.count == 3)
    func record(_ url: String) -> CapturedLog.Record? {
      records.first { $0.metadata["url"] == url }
    }
    #expect(record(Fixtures.url("drawing.svg").absoluteString)?.message == "image refused")
    #expect(record(Fixtures.url("down.png").absoluteString)?.message == "image load failed")
    #expect(
      record(Fixtures.url("down.png").absoluteString)?.metadata["reason"]
        == "server answered HTTP 503")
    #expect(record("file:///etc/passwd")?.message == "image refused")
  }

  @Test func cancellationsAreNotTrouble() async {
    let log = CapturedLog()
    let loader = HeldDataLoader()
    let pipeline = makePipeline(loader, logger: log.logger())
    let task = pipeline.imageTask(with: Fixtures.request("a.png"))
    await loader.waitForHeld(1)
    task.cancel()
    await loader.wait { $0.cancelled == 1 }
    #expect(log.all.isEmpty)
  }

  @Test func diskCacheTroubleIsLogged() throws {
    let log = CapturedLog()
    let directory = TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(at: directory) }
    let cache = try DiskCache(
      directory: directory, sizeLimit: 1 << 20, now: { Date() },
      writeBytes: { _, _ in -1 }, logger: log.logger())
    let metadata = HTTPCacheMetadata(storedAt: Date(), freshUntil: Date())
    #expect(!cache.store(Fixtures.png, metadata: metadata, for: "k"))
    let record = try #require(log.all.first)
    #expect(record.level == .debug)
    #expect(record.message == "disk cache write failed")
    #expect(record.metadata["key"] == "k")
  }
}
