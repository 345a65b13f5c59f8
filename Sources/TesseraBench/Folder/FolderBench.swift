import ArgumentParser
import Foundation
import TesseraBenchSupport
import TesseraGallery

/// `tessera bench folder`: a person's photo folder, the way they meet it. On a generated tree
/// of photo-like 12-MP JPEGs (3–4 MB each, kept between runs), the gallery runs in its own
/// tmux server and the pane is watched until every visible tile shows its picture: cold (an
/// empty freedesktop.org thumbnail folder), after `G` (the end of the folder), and warm (a
/// second launch, which finds the thumbnails the first wrote). `timg --grid` and `chafa` draw
/// the same visible photos in the same run, when installed; peak RSS and the thumbnails
/// written are reported with the times. `--mixed` measures a camera card's folder instead
/// (``MixedFolderPlan``): JPEGs, RAW+JPEG pairs, lone RAWs and short videos, written anew for
/// the run, against timg on the files it shows.
struct FolderBench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "folder",
    abstract: "A folder of 12-MP photos: first full screen cold, warm, after G; vs timg, chafa.")

  @Flag(help: "Print one JSON object instead of tables.") var json = false
  @Option(help: "Photos in the generated tree (default 200; with --mixed, shots, default 48).")
  var photos: Int?
  @Flag(
    help:
      "A camera card's folder: JPEGs, RAW+JPEG pairs (CR2, CR3), lone RAWs and short videos (made with ffmpeg for this run)."
  )
  var mixed = false
  @Option(help: "Launches measured (medians are reported).") var repeats = 3
  @Option(help: "Terminal columns.") var columns = 160
  @Option(help: "Terminal rows.") var rows = 40
  @Option(help: "Where the generated tree is kept (default: the user's cache folder).")
  var tree: String?
  @Option(help: "Path of the timg binary to compare with.") var timg = "/usr/bin/timg"
  @Option(help: "Path of the chafa binary to compare with.") var chafa = "/usr/bin/chafa"
  @Flag(
    help:
      "Photos without the EXIF thumbnail cameras embed (as editors export them): cold must decode every 12-MP original."
  )
  var noExifThumbnails = false

  /// Photos, or the mixed tree's shots.
  private var count: Int { photos ?? (mixed ? 48 : 200) }

  func validate() throws {
    guard (8...(mixed ? FolderBenchTree.distinctPhotos : 100_000)).contains(count) else {
      throw ValidationError(
        mixed
          ? "--photos must be 8…\(FolderBenchTree.distinctPhotos) with --mixed"
          : "--photos must be 8…100000")
    }
    guard (1...20).contains(repeats) else { throw ValidationError("--repeats must be 1…20") }
    guard (40...1_000).contains(columns), (12...500).contains(rows) else {
      throw ValidationError("--columns must be 40…1000 and --rows 12…500")
    }
  }

  func run() async throws {
    let folder =
      tree.map { URL(fileURLWithPath: $0) }
      ?? FolderBenchTree.defaultFolder(count, exifThumbnails: !noExifThumbnails)
    let files = try FolderBenchTree(
      folder: folder, count: count, exifThumbnails: !noExifThumbnails
    ).ensure()
    guard mixed else {
      let benchmark = FolderBenchmark(
        files: files, folder: folder, repeats: repeats, columns: columns, rows: rows, timg: timg,
        chafa: chafa)
      try benchmark.run().print(json: json)
      return
    }
    try MixedFolderTree.requireTools()
    let work = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tessera-bench-mixed-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: work) }
    let plan = MixedFolderPlan(count: count)
    let shots = work.appendingPathComponent("DCIM")
    let shown = try MixedFolderTree(plan: plan, folder: shots, photos: files).make()
    var benchmark = FolderBenchmark(
      files: shown, folder: shots, repeats: repeats, columns: columns, rows: rows, timg: timg,
      chafa: chafa)
    benchmark.mixed = plan
    try benchmark.run().print(json: json)
  }
}

/// The measurements behind `tessera bench folder`.
struct FolderBenchmark {
  let files: [URL]
  let folder: URL
  let repeats: Int
  let columns: Int
  let rows: Int
  let timg: String
  let chafa: String
  /// The mixed tree's plan, when `files` are its shots: its first screen is checked against
  /// it, and timg is the one peer, on the files it shows.
  var mixed: MixedFolderPlan?

  /// One launch's figures.
  private struct Launch {
    /// Until the gallery had written the full screen (as tmux passed its output on).
    var firstScreen: Double
    /// Until a capture of the pane showed it.
    var firstScreenSeen: Double
    var afterG: Double
    var peakRSS: Double
    var visible: Int
  }

  func run() throws -> BenchReport {
    var report = BenchReport(benchmark: "folder")
    let sizes = files.compactMap {
      try? FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int
    }
    let megabytes = Double(sizes.reduce(0, +)) / Double(max(1, sizes.count)) / 1e6
    let contents =
      mixed.map { Self.describe($0) }
      ?? "\(files.count) photos of 4000x3000 px (mean \(String(format: "%.1f", megabytes)) MB)"
    report.note(
      "\(contents) in \(folder.path); blocks, \(columns)x\(rows) cells; \(repeats) launches "
        + "each, medians")
    var cold: [Launch] = []
    var warm: [Launch] = []
    var written: [Double] = []
    for _ in 0..<repeats {
      let cache = FileManager.default.temporaryDirectory.appendingPathComponent(
        "tessera-bench-folder-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: cache) }
      cold.append(try launch(cache: cache))
      written.append(Double(Self.thumbnails(in: cache)))
      warm.append(try launch(cache: cache))
    }
    // The photos of the first screen: the newest, which the generated names end with.
    let visible = files.suffix(cold.first?.visible ?? 0).reversed().map(\.lastPathComponent)
    let coldTime = median(cold.map(\.firstScreen))
    let warmTime = median(warm.map(\.firstScreen))
    report.add("cold.first_screen_ms", coldTime, "ms")
    report.add("cold.first_screen_seen_ms", median(cold.map(\.firstScreenSeen)), "ms")
    report.add("cold.after_G_ms", median(cold.map(\.afterG)), "ms")
    report.add("cold.peak_rss_mb", median(cold.map(\.peakRSS)), "MB")
    report.add("warm.first_screen_ms", warmTime, "ms")
    report.add("warm.first_screen_seen_ms", median(warm.map(\.firstScreenSeen)), "ms")
    report.add("warm.after_G_ms", median(warm.map(\.afterG)), "ms")
    report.add("warm.peak_rss_mb", median(warm.map(\.peakRSS)), "MB")
    report.add("thumbnails_written", median(written), "files")
    report.add("visible_photos", Double(visible.count), "photos")
    report.ratio("warm_vs_cold", ours: warmTime, baseline: coldTime)
    // A tree of hard links shows its first photos in the walk's order, not the newest: its
    // baselines would run on other photos, so they are taken on the 200-photo tree only.
    let paths = visible.map { folder.appendingPathComponent($0).path }
    if let mixed {
      let shots = mixed.firstScreen(visible.count)
      report.note(
        "first screen: \(MixedFolderPlan.census(shots)), checked on every launch: each tile a "
          + "picture, in the plan's order, a pair once with RAW+, a video with its ▶")
      addTimgOnMixed(shots, to: &report, cold: coldTime, warm: warmTime)
    } else if files.count > FolderBenchTree.distinctPhotos {
      report.note("no timg or chafa baseline: a tree of hard links is shown in the walk's order")
    } else {
      let columnsOnScreen = max(1, min(paths.count, 4))
      let tile = "\(columns / 4 - 2)x\(rows / 2 - 2)"
      addBaseline(
        "timg", figure: "timg.grid_ms", to: &report, cold: coldTime, warm: warmTime,
        [timg, "--grid=\(columnsOnScreen)", "-g\(columns)x\(rows)", "-ph"] + paths)
      addBaseline(
        "chafa", figure: "chafa.sheet_ms", to: &report, cold: coldTime, warm: warmTime,
        [chafa, "-f", "symbols", "--symbols", "vhalf", "-s", tile] + paths)
    }
    report.note(
      "first screen: from starting the gallery (in a tmux server started before) until it had "
        + "composed the first frame (its own log, TESSERA_BENCH_FRAME_LOG) after which the pane "
        + "shows every visible tile drawn (no placeholder left) in its final order: found when a "
        + "capture (taken whenever the gallery has written) shows it, then dated by replaying "
        + "the output up to each frame since the last capture that did not into a second pane (the walk over, every date taken read; for a tree larger than "
        + "\(FolderBenchTree.distinctPhotos) photos, made of hard links, in the walk's order); "
        + "after G: from the key to the same at the end of the folder; cold: an empty "
        + "XDG_CACHE_HOME; warm: a second launch on the thumbnails the first wrote; *_seen: until "
        + "that capture returned (adds tmux taking in the frame, which timg, writing to /dev/null, "
        + "does not pay); the originals are in the OS page cache for every contender")
    return report
  }

  private func launch(cache: URL) throws -> Launch {
    // The link's target, not the link: inside tmux, /proc/self is the shell.
    let executable =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    let session = try FolderBenchSession(columns: columns, rows: rows)
    let frames = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tessera-bench-frames-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: frames) }
    /// Milliseconds from `since` (CLOCK_MONOTONIC ns) to the gallery's frame that completed
    /// `seen`'s screen: the first frame ending after the last capture that was not full
    /// whose replay shows `full`. Nil without a frame log or such a frame.
    func composedTime(
      of seen: FolderBenchSession.Seen, since: Int, _ full: (FolderBenchSession.Screen) -> Bool
    ) throws -> Double? {
      guard let log = try? String(contentsOf: frames, encoding: .utf8) else { return nil }
      let candidates = FrameLog.frames(in: log).filter {
        $0.bytes > seen.notFullBefore && $0.bytes <= seen.bytes
      }
      guard
        let bytes = try session.firstBoundary(of: candidates.map(\.bytes), showing: full),
        let frame = candidates.first(where: { $0.bytes == bytes })
      else { return nil }
      return Double(frame.time - since) / 1e6
    }
    let start = ContinuousClock.now
    let startNanoseconds = FrameLog.monotonicNanoseconds()
    // The posters' scratch folders too go where this launch's caches are, and with them.
    let scratch = cache.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    try session.launch(
      [executable, "gallery", "--dir", folder.path, "--graphics", "blocks"],
      environment: [
        "XDG_CACHE_HOME": cache.path, "TMPDIR": scratch.path, FrameLog.environmentKey: frames.path,
      ])
    // The final order (every date read) for a tree of distinct photos; a tree of 100,000
    // hard links is timed to its first full screen, in the walk's order, as no program can
    // read 100,000 dates in the time it asks for.
    let final = files.count <= FolderBenchTree.distinctPhotos
    let firstIsFull = { (screen: FolderBenchSession.Screen) in
      screen.isFull && (!final || screen.ordered)
    }
    let first = try session.waitForFullScreen(firstIsFull)
    if let mixed {
      try FolderScreenCheck.firstScreen(first.screen, of: mixed)
    } else {
      try FolderScreenCheck.pictures(first.screen)
    }
    // A key typed while the gallery still reads the terminal's replies to its capability
    // queries can be swallowed: `G` is sent again every half second until the range moves,
    // and the time counts from the send that moved it.
    let endIsFull = { (screen: FolderBenchSession.Screen) in
      screen.isFull && screen.last == screen.total && screen.first > 1
    }
    var sent = ContinuousClock.now
    var sentNanoseconds = FrameLog.monotonicNanoseconds()
    try session.send("G")
    var end: FolderBenchSession.Seen?
    while end == nil {
      end = try session.waitForFullScreen(within: .milliseconds(500), endIsFull)
      if end != nil {
        break
      } else if ContinuousClock.now - start > .seconds(120) {
        throw FolderBenchProcess.Failure(description: "the gallery did not go to the end on G")
      } else {
        sent = ContinuousClock.now
        sentNanoseconds = FrameLog.monotonicNanoseconds()
        try session.send("G")
      }
    }
    if let end { try FolderScreenCheck.pictures(end.screen) }
    let firstSeen = (first.seenAt - start).milliseconds
    let endSeen = ((end?.seenAt ?? sent) - sent).milliseconds
    return Launch(
      firstScreen: try composedTime(of: first, since: startNanoseconds, firstIsFull) ?? firstSeen,
      firstScreenSeen: firstSeen,
      afterG: try end.flatMap { try composedTime(of: $0, since: sentNanoseconds, endIsFull) }
        ?? endSeen,
      peakRSS: session.peakRSSMegabytes(), visible: first.screen.last - first.screen.first + 1)
  }

  /// A peer's median time on the same photos, and our ratios against it; a note instead when
  /// it is not installed or fails.
  func addBaseline(
    _ name: String, figure: String, to report: inout BenchReport, cold: Double, warm: Double,
    _ arguments: [String]
  ) {
    guard FileManager.default.isExecutableFile(atPath: arguments[0]) else {
      report.note("\(name) not installed at \(arguments[0]): no \(name) baseline")
      return
    }
    let times = (0..<repeats).map { _ in FolderBenchProcess.time(arguments) }
    guard times.allSatisfy(\.isFinite) else {
      report.note("\(name) failed on the visible photos: no \(name) baseline")
      return
    }
    let time = median(times)
    report.add(figure, time, "ms")
    report.ratio("cold_vs_\(name)", ours: cold, baseline: time)
    report.ratio("warm_vs_\(name)", ours: warm, baseline: time)
  }

  /// Thumbnail files under `cache`'s `thumbnails/` size folders.
  static func thumbnails(in cache: URL) -> Int {
    ["normal", "large", "x-large", "xx-large"].reduce(0) { count, size in
      let folder = cache.appendingPathComponent("thumbnails/\(size)").path
      let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
      return count + names.filter { $0.hasSuffix(".png") }.count
    }
  }

  private func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
  }
}

extension Duration {
  /// This duration in milliseconds, as a Double.
  fileprivate var milliseconds: Double { nanoseconds / 1e6 }
}
