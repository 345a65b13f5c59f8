import ArgumentParser
import Foundation
import TesseraBenchSupport
import TesseraImageSynthesis
import TesseraPhotoFormats
import TesseraPhotoLibrary

#if canImport(Glibc)
  import Glibc
#endif

/// `tessera bench cull`: ratings in XMP sidecars, against exiftool on the same tree in the
/// same run — reading every photo's rating (`tessera find --filter 'rating>=-1'`, cold with an
/// empty facts store and warm, against `exiftool -r -ext xmp -XMP:Rating`), a filter
/// (`rating>=4`, against `exiftool -if`), and a rating key's write to the sidecar on disk
/// (`SidecarWriter`, as the key writes, against `exiftool -XMP-xmp:Rating=`). Every run's
/// answer is checked: a wrong count fails the bench.
struct CullBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "cull",
    abstract: "Ratings in XMP sidecars: read, filter and write a tree's, vs exiftool.")

  @Flag(help: "Print one JSON object instead of tables.") var json = false
  @Option(help: "Photos in the tree, each with a sidecar (1,000…100,000).") var photos = 10_000
  @Option(help: "Path of the exiftool to compare with.") var exiftool = "/usr/bin/exiftool"

  func run() throws {
    guard (1_000...100_000).contains(photos) else {
      throw ValidationError("--photos must be within 1,000…100,000")
    }
    guard FileManager.default.isExecutableFile(atPath: exiftool) else {
      throw ValidationError(
        "no exiftool at \(exiftool): Debian's libimage-exiftool-perl has it")
    }
    try CullBenchmark(photos: photos, exiftool: exiftool).run().print(json: json)
  }
}

struct CullBenchmark {
  let photos: Int
  let exiftool: String
  /// Writes timed of each writer: exiftool starts Perl for each, about a fifth of a second.
  static let writes = 8
  static let photosPerFolder = 250

  /// Photo `index`'s rating: −1 (rejected) to 5, in turn.
  static func rating(_ index: Int) -> Int { index % 7 - 1 }

  func run() throws -> BenchReport {
    var report = BenchReport(benchmark: "cull")
    let root = URL(fileURLWithPath: NSTemporaryDirectory())
      .appendingPathComponent("tessera-bench-cull-\(getpid())")
    try? FileManager.default.removeItem(at: root)
    defer { try? FileManager.default.removeItem(at: root) }
    let tree = root.appendingPathComponent("tree")
    let sidecars = try makeTree(tree)
    // An empty facts store: the first find reads every header and sidecar ("cold").
    setenv("XDG_CACHE_HOME", root.appendingPathComponent("cache").path, 1)
    let binary =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    let best = (0..<photos).filter { Self.rating($0) >= 4 }.count

    let cold = try timed(expecting: photos, "tessera find (cold)") {
      try Self.nulSeparated([binary, "find", tree.path, "--filter", "rating>=-1", "-0"])
    }
    let warm =
      try (0..<3).map { _ in
        try timed(expecting: photos, "tessera find (warm)") {
          try Self.nulSeparated([binary, "find", tree.path, "--filter", "rating>=-1", "-0"])
        }
      }.min() ?? 0
    let theirs =
      try (0..<2).map { _ in
        try timed(expecting: photos, "exiftool -XMP:Rating") {
          try Self.lines([
            exiftool, "-r", "-q", "-q", "-fast", "-ext", "xmp", "-T", "-XMP:Rating", tree.path,
          ])
        }
      }.min() ?? 0
    let find =
      try (0..<3).map { _ in
        try timed(expecting: best, "tessera find rating>=4") {
          try Self.nulSeparated([binary, "find", tree.path, "--filter", "rating>=4", "-0"])
        }
      }.min() ?? 0
    let theirFind =
      try (0..<2).map { _ in
        try timed(expecting: best, "exiftool -if") {
          try Self.lines([
            exiftool, "-r", "-q", "-q", "-fast", "-ext", "xmp", "-if", "$XMP:Rating >= 4", "-p",
            "$FilePath", tree.path,
          ])
        }
      }.min() ?? 0
    let (ours, exiftools) = try writes(to: sidecars)

    report.add("read_\(photos)_cold_ms", cold * 1000, "ms")
    report.add("read_\(photos)_warm_ms", warm * 1000, "ms")
    report.add("exiftool_read_\(photos)_ms", theirs * 1000, "ms")
    report.ratio("read_cold_vs_exiftool", ours: cold, baseline: theirs)
    report.ratio("read_warm_vs_exiftool", ours: warm, baseline: theirs)
    report.add("find_rating4_warm_ms", find * 1000, "ms")
    report.add("exiftool_if_rating4_ms", theirFind * 1000, "ms")
    report.ratio("find_vs_exiftool_if", ours: find, baseline: theirFind)
    report.add("rating_key_to_disk_median_ms", ours * 1000, "ms")
    report.add("exiftool_write_median_ms", exiftools * 1000, "ms")
    report.ratio("rating_write_vs_exiftool", ours: ours, baseline: exiftools)
    report.note(
      "\(photos) photos (small JPEGs with EXIF) in folders of \(Self.photosPerFolder), each with a "
        + "darktable-style sidecar IMG.jpg.xmp rated -1…5 in turn; tessera find walks and reads "
        + "headers and sidecars (cold: an empty facts store; warm: the best of 3), exiftool reads "
        + "the sidecars only (best of 2); a write is SidecarWriter's (parse, set, serialize, "
        + "temporary file, fsync, rename) against exiftool -overwrite_original, medians of "
        + "\(Self.writes); every count and every value written is checked")
    return report
  }

  /// The tree: photos with EXIF and a sidecar each; returns the first folder's sidecars.
  private func makeTree(_ tree: URL) throws -> [String] {
    let photo = Data(
      ExifWriter(model: "X-T5", orientation: 1, dateTaken: "2024:05:01 10:00:00").splicing(
        into: RawFixtures.jpeg(width: 64, height: 48)))
    var first: [String] = []
    for index in 0..<photos {
      let folder = tree.appendingPathComponent(
        String(format: "%03d", index / Self.photosPerFolder), isDirectory: true)
      if index % Self.photosPerFolder == 0 {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      }
      let name = String(format: "IMG_%05d.jpg", index)
      try photo.write(to: folder.appendingPathComponent(name))
      let sidecar = folder.appendingPathComponent(name + ".xmp")
      try Data(Self.sidecar(rating: Self.rating(index)).utf8).write(to: sidecar)
      if index < Self.writes { first.append(sidecar.path) }
    }
    return first
  }

  /// A sidecar as darktable writes one: properties as attributes, a history beside them.
  static func sidecar(rating: Int) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
     <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
        xmlns:darktable="http://darktable.sf.net/" xmp:Rating="\(rating)"
        darktable:history_end="1">
       <darktable:history><rdf:Seq><rdf:li darktable:operation="exposure"
        darktable:enabled="1" darktable:params="0000000000000000"/></rdf:Seq></darktable:history>
      </rdf:Description>
     </rdf:RDF>
    </x:xmpmeta>
    """
  }

  /// The median seconds of a rating written to a sidecar by `SidecarWriter` and by exiftool,
  /// each checked by reading the sidecar back.
  private func writes(to sidecars: [String]) throws -> (ours: Double, exiftool: Double) {
    var ours: [Double] = []
    var theirs: [Double] = []
    let reader = LocalPhotoHeaderReader()
    for (number, path) in sidecars.enumerated() {
      let rating = number % 5 + 1
      let start = ContinuousClock.now
      do {
        _ = try SidecarWriter.apply(.rating(rating), toSidecarAt: path)
      } catch {
        throw BenchFailure("the sidecar write failed: \(error)")
      }
      ours.append(Self.seconds(ContinuousClock.now - start))
      guard reader.culling(ofSidecarAt: path)?.rating == rating else {
        throw BenchFailure("\(path) does not read \(rating) after Tessera wrote it")
      }
      let again = rating % 5 + 1
      let before = ContinuousClock.now
      let (status, _) = try BenchSpawn.run(
        [exiftool, "-q", "-overwrite_original", "-XMP-xmp:Rating=\(again)", path], capturing: true)
      theirs.append(Self.seconds(ContinuousClock.now - before))
      guard status == 0, reader.culling(ofSidecarAt: path)?.rating == again else {
        throw BenchFailure("\(path) does not read \(again) after exiftool wrote it (\(status))")
      }
    }
    return (Self.median(ours), Self.median(theirs))
  }

  /// Runs `body` (which returns the number of answers), fails unless it answered `expected`;
  /// the seconds it took.
  private func timed(
    expecting expected: Int, _ what: String, _ body: () throws -> Int
  ) throws
    -> Double
  {
    let start = ContinuousClock.now
    let count = try body()
    let seconds = Self.seconds(ContinuousClock.now - start)
    guard count == expected else {
      throw BenchFailure("\(what) answered \(count) photos, not \(expected)")
    }
    return seconds
  }

  private static func nulSeparated(_ arguments: [String]) throws -> Int {
    let (_, bytes) = try BenchSpawn.runCapturingBytes(arguments)
    return bytes.filter { $0 == 0 }.count
  }

  private static func lines(_ arguments: [String]) throws -> Int {
    let (_, text) = try BenchSpawn.run(arguments, capturing: true)
    return text.split(separator: "\n").count
  }

  private static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }

  private static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
  }
}
