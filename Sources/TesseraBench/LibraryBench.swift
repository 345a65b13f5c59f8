import ArgumentParser
import Foundation
import TesseraBenchSupport
import TesseraGallery
import TesseraPhotoLibrary

struct LibraryBench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "library",
    abstract: "Memory and time per photo of a walked photo list at n/10 and n photos.")

  @Flag(help: "Print one JSON object instead of tables.") var json = false
  @Option(help: "Photos in the larger list (1,000…1,000,000).") var photos = 100_000
  @Option(help: .hidden) var child: Int?

  func run() async throws {
    if let child {
      guard (1...1_000_000).contains(child) else { throw ValidationError("--child out of range") }
      let figures = await LibraryBenchChild(photos: child).run()
      print(figures.line)
      return
    }
    guard (1_000...1_000_000).contains(photos) else {
      throw ValidationError("--photos must be within 1,000…1,000,000")
    }
    try LibraryBenchmark(photos: photos).run().print(json: json)
  }
}

/// Each size runs in a child process of its own, so the resident memory it reports is the
/// list's and nothing a previous size left in the allocator.
struct LibraryBenchmark {
  let photos: Int

  func run() throws -> BenchReport {
    var report = BenchReport(benchmark: "library")
    let binary =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    let empty = try measure(binary, photos: 0)
    let small = try measure(binary, photos: photos / 10)
    let large = try measure(binary, photos: photos)
    let smallPerPhoto = Double(small.rss - empty.rss) / Double(photos / 10)
    let largePerPhoto = Double(large.rss - empty.rss) / Double(photos)
    report.add("rss_empty_mb", Double(empty.rss) / 1e6, "MB")
    report.add("rss_\(photos / 10)_mb", Double(small.rss) / 1e6, "MB")
    report.add("rss_\(photos)_mb", Double(large.rss) / 1e6, "MB")
    report.add("peak_rss_\(photos)_mb", Double(large.peak) / 1e6, "MB")
    report.add("bytes_per_photo_\(photos / 10)", smallPerPhoto, "B")
    report.add("bytes_per_photo_\(photos)", largePerPhoto, "B")
    report.ratio("bytes_per_photo_large_vs_small", ours: largePerPhoto, baseline: smallPerPhoto)
    report.add("walk_to_final_order_\(photos / 10)_ms", small.milliseconds, "ms")
    report.add("walk_to_final_order_\(photos)_ms", large.milliseconds, "ms")
    report.ratio(
      "time_per_photo_large_vs_small", ours: large.milliseconds / Double(photos),
      baseline: small.milliseconds / Double(photos / 10))
    report.note(
      "a synthetic walk (paths like /home/person/Pictures/2019/2019-03-14/IMG_20190314_101523_0042.jpg, "
        + "250 a folder, every header with a date taken and a camera model) through PhotoLibrary and "
        + "the gallery's items, until every date is read and the final order published; RSS after, "
        + "in a child process per size, less an empty list's; a ratio near 1 means linear")
    return report
  }

  private func measure(_ binary: String, photos: Int) throws -> LibraryBenchChild.Figures {
    let (status, output) = try BenchSpawn.run(
      [binary, "bench", "library", "--child", String(max(photos, 1))], capturing: true)
    guard status == 0, let figures = LibraryBenchChild.Figures(line: output) else {
      throw ValidationError("bench library --child \(photos) failed (\(status)): \(output)")
    }
    return figures
  }
}

/// One size: walks `photos` synthetic files to the final order, then reports.
@MainActor
struct LibraryBenchChild {
  let photos: Int

  struct Figures {
    var rss: Int
    var peak: Int
    var milliseconds: Double

    var line: String { "\(rss) \(peak) \(milliseconds)" }

    init(rss: Int, peak: Int, milliseconds: Double) {
      self.rss = rss
      self.peak = peak
      self.milliseconds = milliseconds
    }

    init?(line: String) {
      let parts = line.split(whereSeparator: \.isWhitespace)
      guard parts.count == 3, let rss = Int(parts[0]), let peak = Int(parts[1]),
        let milliseconds = Double(parts[2])
      else { return nil }
      self.init(rss: rss, peak: peak, milliseconds: milliseconds)
    }
  }

  func run() async -> Figures {
    let start = ContinuousClock.now
    var library: PhotoLibrary?
    let feed = GalleryFeed(title: "bench") {
      let made = PhotoLibrary(
        walker: SyntheticWalker(count: photos), headerReader: SyntheticHeaders())
      library = made
      return made
    }
    let (changes, continuation) = AsyncStream.makeStream(of: Void.self)
    feed.onChange = { _ in continuation.yield() }
    await feed.load()
    // Every header read publishes the final order (and the feed's items) in the same turn.
    if let library {
      for await _ in changes
      where library.progress.headersRead == photos && feed.items.count == photos {
        break
      }
    }
    let elapsed = (ContinuousClock.now - start).nanoseconds / 1e6
    return Figures(
      rss: ProcessMemory.current(), peak: ProcessMemory.peak(), milliseconds: elapsed)
  }
}

/// Files as a camera names them, 250 a day-folder, modified a minute apart.
private struct SyntheticWalker: FileWalking {
  let count: Int

  func walk(_ deliver: (WalkBatch) -> Bool) {
    var batch = WalkBatch()
    let base = 1_552_557_323.0
    for index in 0..<count {
      let day = index / 250
      let modified = Date(timeIntervalSince1970: base + Double(index) * 60)
      let folder = "/home/person/Pictures/\(2019 + day / 365)/day-\(day)"
      batch.files.append(
        WalkedFile(
          path: folder + "/IMG_20190314_\(100_000 + index % 100_000)_\(index % 10_000).jpg",
          size: 3_500_000, modified: modified))
      if batch.files.count == 2_048 {
        batch.foldersWalked = day + 1
        guard deliver(batch) else { return }
        batch.files.removeAll(keepingCapacity: true)
      }
    }
    batch.foldersWalked = count / 250 + 1
    batch.finished = true
    _ = deliver(batch)
  }
}

/// A header as a camera writes it: a date taken (an hour before the file's time) and a model
/// name long enough to need storage of its own, made afresh for each photo as EXIF parsing
/// makes it.
private struct SyntheticHeaders: PhotoHeaderReading {
  func header(ofFileAt path: String) -> PhotoHeader? {
    let model = String(decoding: Array("Canon EOS 5D Mark IV".utf8), as: UTF8.self)
    let hour = path.utf8.count % 24
    return PhotoHeader(
      pixelSize: PixelSize(width: 4000, height: 3000),
      exif: ExifFacts(
        taken: WallClockTime(exif: "2019:03:14 \(hour < 10 ? "0" : "")\(hour):15:23"), model: model,
        orientation: 1))
  }
}
