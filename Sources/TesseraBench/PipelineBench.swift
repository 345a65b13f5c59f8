import ArgumentParser
import CVipsShim
import Foundation
import TesseraBenchSupport
import TesseraGallery
import TesseraImages
import TesseraUtilities

/// `tessera bench pipeline`: the image pipeline's hot path and its decoder against the
/// reference tools, on the same generated files in the same run.
struct PipelineBench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pipeline",
    abstract:
      "Memory-cache lookups, decode + downsample vs vipsthumbnail, peak RSS "
      + "(the HTTP data loaders are compared by tessera-loader-bench).")

  @Flag(help: "Print one JSON object instead of tables.") var json = false

  @Option(help: "Distinct 12-megapixel images loaded at 256 px for the peak-RSS figure.")
  var images = 600

  @Option(help: "Distinct 12-megapixel JPEGs generated (the decode batch).")
  var batch = 6

  @Option(name: .customLong("cache-mib"), help: "Memory-cache limit of the peak-RSS run, in MiB.")
  var cacheMiB = 64

  func validate() throws {
    guard images > 0, batch > 0, cacheMiB > 0 else {
      throw ValidationError("--images, --batch and --cache-mib must be positive")
    }
  }

  func run() async throws {
    let report = try await PipelineBenchmark(images: images, batch: batch, cacheMiB: cacheMiB)
      .run()
    report.print(json: json)
  }
}

/// The image pipeline's hot path and its decoder against the reference tools, on the same
/// generated files in the same run.
struct PipelineBenchmark {
  /// Distinct URLs loaded at once for the peak-RSS figure.
  let images: Int
  /// Distinct 12-megapixel JPEGs generated.
  let batch: Int
  let cacheMiB: Int

  func run() async throws -> BenchReport {
    guard tessera_vips_init() == 0 else { throw ValidationError("libvips failed to start") }
    var report = BenchReport(benchmark: "pipeline")
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("tessera-bench-\(ProcessInfo.processInfo.processIdentifier)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }

    try measureMemoryHits(&report)
    let files = try BenchImages.generate(count: max(1, batch), into: folder)
    report.note(
      "decode batch: \(files.count) generated 4000x3000 JPEGs (Q=85), "
        + "\(files.map(\.size).reduce(0, +) / files.count / 1024) KiB on average")
    try await measureDecode(files.map(\.url), folder: folder, &report)
    try await measurePeakMemory(files.map(\.url), folder: folder, &report)
    return report
  }

  // MARK: Memory-cache hits

  /// `cachedImage(for:)` on a cache of 10,000 entries, against a dictionary behind a lock
  /// (the least a thread-safe cache can cost).
  private func measureMemoryHits(_ report: inout BenchReport) throws {
    let entries = 10_000
    let pixels = [UInt8](repeating: 128, count: 64 * 64 * 4)  // shared by every entry
    let image = try Image(
      width: 64, height: 64, pixels: pixels, originalSize: PixelSize(width: 640, height: 640))
    let memory = MemoryCache(costLimit: 1 << 30, countLimit: entries * 2)
    let pipeline = ImagePipeline(configuration: .init(memoryCache: memory))
    let requests = (0..<entries).map { index in
      ImageRequest(
        url: URL(string: "https://images.example/photos/\(index).jpg")
          ?? URL(fileURLWithPath: "/"),
        targetSize: PixelSize(width: 256, height: 256))
    }
    var dictionary: [String: Image] = [:]
    for request in requests {
      memory.store(image, for: request.memoryCacheKey)
      dictionary[request.url.absoluteString] = image
    }
    let lock = NSLock()
    var random = SplitMix64(seed: 42)
    let order = (0..<200_000).map { _ in Int(random.next() % UInt64(entries)) }
    var ours = Samples()
    var baseline = Samples()
    var hits = 0
    for index in order {
      let request = requests[index]
      if ours.measure({ pipeline.cachedImage(for: request) }) != nil { hits += 1 }
      let found = baseline.measure { () -> Image? in
        lock.lock()
        defer { lock.unlock() }
        return dictionary[request.url.absoluteString]
      }
      if found != nil { hits += 1 }
    }
    report.add("memory_hit_median_ns", ours.median, "ns")
    report.add("memory_hit_p99_ns", ours.p99, "ns")
    report.add("memory_hit_dictionary_median_ns", baseline.median, "ns")
    report.ratio("memory_hit_vs_dictionary", ours: ours.median, baseline: baseline.median)
    report.note(
      "memory hits: \(order.count) lookups over \(entries) entries, all hits: "
        + "\(hits == 2 * order.count); times include one clock read pair (~20-40 ns)")
  }

  // MARK: Decode + downsample

  /// Time per image to 256 px: ours (the whole pipeline from a file URL, one decoder thread)
  /// against vipsthumbnail (one process for the batch, one thread) and ImageMagick.
  private func measureDecode(
    _ files: [URL], folder: URL, _ report: inout BenchReport
  )
    async throws
  {
    // No cache of any kind: every round decodes every original (a shared thumbnail written
    // by the first round would otherwise be what later rounds time).
    let pipeline = ImagePipeline(
      configuration: .init(
        memoryCache: nil, diskCache: nil, thumbnailCache: nil, maxConcurrentDecodes: 1))
    let box = PixelSize(width: 256, height: 256)
    _ = try await pipeline.image(
      for: ImageRequest(url: files[0], targetSize: box, source: .localFolder))  // warm up
    let rounds = 4
    var ours: [Double] = []
    var vipsOnce: [Double] = []
    var vipsThrice: [Double] = []
    let vipsthumbnail = Tool.find("vipsthumbnail")
    let output = folder.appendingPathComponent("out", isDirectory: true)
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    for _ in 0..<rounds {
      let start = ContinuousClock.now
      for file in files {
        let image = try await pipeline.image(
          for: ImageRequest(url: file, targetSize: box, source: .localFolder))
        // A real decode of a 4000x3000 original: 256 px on its long side, the original's size
        // known (an embedded or shared thumbnail would be smaller or say so).
        guard max(image.width, image.height) == 256, image.originalSize.width == 4000 else {
          throw BenchFailure("decode of \(file.lastPathComponent) gave \(image)")
        }
      }
      ours.append((ContinuousClock.now - start).nanoseconds / Double(files.count))
      if let vipsthumbnail {
        // The batch once and three times over: the difference is the marginal cost of two
        // batches, without the process's start-up (~50 ms of libvips init) ours never pays.
        func run(_ paths: [String]) throws -> Double {
          try Tool.time(
            vipsthumbnail, ["-s", "256", "-o", output.path + "/%s.v"] + paths,
            environment: ["VIPS_CONCURRENCY": "1"])
        }
        let paths = files.map(\.path)
        vipsOnce.append(try run(paths))
        vipsThrice.append(try run(paths + paths + paths))
      }
    }
    let oursPerImage = ours.min() ?? .nan
    report.add("decode_256_ours_ms", oursPerImage / 1e6, "ms")
    if let once = vipsOnce.min(), let thrice = vipsThrice.min() {
      let best = max(0, thrice - once) / Double(2 * files.count)
      report.add("decode_256_vipsthumbnail_ms", best / 1e6, "ms")
      report.ratio("decode_vs_vipsthumbnail", ours: oursPerImage, baseline: best)
    } else {
      report.note("vipsthumbnail not found (Debian: libvips-tools): no ratio")
    }
    if let convert = Tool.find("convert"),
      Tool.output(convert, ["-version"]).contains("Version: ImageMagick")
    {
      let sample = Array(files.prefix(3))
      var total = 0.0
      for file in sample {
        total += try Tool.time(
          convert,
          [file.path, "-thumbnail", "256x256", output.appendingPathComponent("c.ppm").path])
      }
      let perImage = total / Double(sample.count)
      report.add("decode_256_convert_ms", perImage / 1e6, "ms")
      report.ratio("decode_vs_convert", ours: oursPerImage, baseline: perImage)
    } else {
      report.note("ImageMagick's convert not installed (Debian: imagemagick): no ratio")
    }
    report.note(
      "decode: fastest of \(rounds) rounds, one thread each; ours is the whole pipeline from a "
        + "file URL (read, header check, shrink-on-load, RGBA); vipsthumbnail's is the "
        + "marginal cost per image, start-up excluded (VIPS_CONCURRENCY=1, .v output); "
        + "convert runs once per image (3 images)")
  }

  // MARK: Peak memory

  /// Loads `images` distinct URLs (hard links to the batch) at 256 px, all requested at once,
  /// and reports the process's peak RSS against the memory-cache limit.
  private func measurePeakMemory(
    _ files: [URL], folder: URL, _ report: inout BenchReport
  )
    async throws
  {
    let links = folder.appendingPathComponent("distinct", isDirectory: true)
    try FileManager.default.createDirectory(at: links, withIntermediateDirectories: true)
    var urls: [URL] = []
    for index in 0..<images {
      let link = links.appendingPathComponent("image-\(index).jpg")
      // A hard link: a distinct path (the caches key by path) to a real file, which local
      // reads accept (they refuse symbolic links, O_NOFOLLOW).
      try FileManager.default.linkItem(at: files[index % files.count], to: link)
      urls.append(link)
    }
    let limit = cacheMiB << 20
    let memory = MemoryCache(costLimit: limit, countLimit: images + 1)
    let pipeline = ImagePipeline(
      configuration: .init(memoryCache: memory, diskCache: nil, thumbnailCache: nil))
    let resetWorked = ProcessMemory.resetPeak()
    let before = ProcessMemory.current()
    let done = Countdown(images)
    let failures = Countdown(0)
    let start = ContinuousClock.now
    for url in urls {
      pipeline.startImageTask(
        with: ImageRequest(
          url: url, targetSize: PixelSize(width: 256, height: 256), source: .localFolder)
      ) { result in
        if case .failure = result { failures.add() }
        done.tick()
      }
    }
    await done.wait()
    let seconds = (ContinuousClock.now - start).nanoseconds / 1e9
    let peak = ProcessMemory.peak()
    let statistics = pipeline.statistics
    let mib = 1024.0 * 1024
    report.add("rss_images", Double(images), "images")
    report.add("rss_before_mib", Double(before) / mib, "MiB")
    report.add("rss_peak_mib", Double(peak) / mib, "MiB")
    report.add("rss_growth_mib", Double(peak - before) / mib, "MiB")
    report.add("memory_cache_limit_mib", Double(limit) / mib, "MiB")
    report.ratio("rss_growth_vs_cache_limit", ours: Double(peak - before), baseline: Double(limit))
    report.add("full_size_bitmaps_mib", Double(images) * 4000 * 3000 * 4 / mib, "MiB")
    report.add("rss_images_per_second", Double(images) / seconds, "images/s")
    report.add("rss_decode_failures", Double(failures.value), "images")
    report.add(
      "rss_average_decode_ms", statistics.averageDecodeTime.nanoseconds / 1e6, "ms")
    report.note(
      "peak RSS: \(images) distinct 4000x3000 JPEGs requested at once at 256 px, "
        + "\(statistics.decodes) decodes, memory cache \(memory.count) entries / "
        + "\(memory.totalCost / 1024) KiB at the end"
        + (resetWorked ? "" : "; VmHWM could not be reset, so the peak includes earlier phases"))
    // A figure over failed loads describes nothing.
    guard failures.value == 0, statistics.decodes >= images else {
      throw BenchFailure(
        "peak RSS: \(failures.value) of \(images) loads failed, \(statistics.decodes) decodes")
    }
  }
}

// MARK: - Helpers

/// Generated 12-megapixel JPEGs with photo-like detail (gradients plus noise), so their size
/// and decode cost resemble camera pictures rather than flat colour.
private enum BenchImages {
  struct File {
    let url: URL
    let size: Int
  }

  static func generate(count: Int, into folder: URL) throws -> [File] {
    let width = 4000
    let height = 3000
    var files: [File] = []
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    for seed in 0..<count {
      var random = SplitMix64(seed: UInt64(seed) &+ 7)
      pixels.withUnsafeMutableBufferPointer { buffer in
        for y in 0..<height {
          for x in 0..<width {
            let noise = Int(random.next() & 31)
            let i = (y * width + x) * 3
            buffer[i] = UInt8(truncatingIfNeeded: x / 16 + seed * 40 + noise)
            buffer[i + 1] = UInt8(truncatingIfNeeded: y / 12 + (x / 200) * 9 + noise)
            buffer[i + 2] = UInt8(truncatingIfNeeded: (x + y) / 30 + seed * 15 + noise / 2)
          }
        }
      }
      var out: UnsafeMutableRawPointer?
      var length = 0
      let status = pixels.withUnsafeBufferPointer {
        tessera_vips_encode(
          $0.baseAddress, $0.count, Int32(width), Int32(height), 3, ".jpg[Q=85]", &out, &length)
      }
      guard status == 0, let out else { throw ValidationError("could not encode a test JPEG") }
      let url = folder.appendingPathComponent("photo-\(seed).jpg")
      try Data(bytes: out, count: length).write(to: url)
      tessera_vips_free(out)
      files.append(File(url: url, size: length))
    }
    return files
  }
}

/// External programs: found on PATH, timed wall-clock.
private enum Tool {
  static func find(_ name: String) -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") {
      let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return nil
  }

  /// The tool's standard output, or "" when it cannot run.
  static func output(_ tool: URL, _ arguments: [String]) -> String {
    let process = Process()
    process.executableURL = tool
    process.arguments = arguments
    process.environment = ChildEnvironment.dictionary
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return "" }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  /// Runs the tool to completion; returns nanoseconds elapsed. Fails on a non-zero exit.
  static func time(
    _ tool: URL, _ arguments: [String], environment: [String: String] = [:]
  )
    throws -> Double
  {
    let process = Process()
    process.executableURL = tool
    process.arguments = arguments
    process.environment = ChildEnvironment.dictionary.merging(environment) { $1 }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let start = ContinuousClock.now
    try process.run()
    process.waitUntilExit()
    let elapsed = (ContinuousClock.now - start).nanoseconds
    guard process.terminationStatus == 0 else {
      throw ValidationError("\(tool.lastPathComponent) exited with \(process.terminationStatus)")
    }
    return elapsed
  }
}

/// Counts completions from any thread; `wait` returns when the count reaches zero.
private final class Countdown: @unchecked Sendable {
  // Unchecked: every field is read and written under `lock`.
  private let lock = NSLock()
  private var remaining: Int
  private var added = 0
  private var waiter: CheckedContinuation<Void, Never>?

  init(_ count: Int) { remaining = count }

  var value: Int { lock.withLock { added } }

  func add() { lock.withLock { added += 1 } }

  func tick() {
    let waiter = lock.withLock { () -> CheckedContinuation<Void, Never>? in
      remaining -= 1
      guard remaining == 0 else { return nil }
      defer { self.waiter = nil }
      return self.waiter
    }
    waiter?.resume()
  }

  func wait() async {
    await withCheckedContinuation { continuation in
      let done = lock.withLock { () -> Bool in
        if remaining <= 0 { return true }
        waiter = continuation
        return false
      }
      if done { continuation.resume() }
    }
  }
}
