import ArgumentParser
import TesseraBenchSupport

/// `tessera-loader-bench`: the two HTTP data loaders (URLSession and AsyncHTTPClient) on the
/// same images in the same run. A program of its own because URLSession links libcurl, which
/// the `tessera` binary does not.
@main
struct LoaderBench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tessera-loader-bench",
    abstract: "The URLSession and AsyncHTTPClient data loaders compared over loopback.")

  @Flag(help: "Print one JSON object instead of tables.") var json = false

  @Option(help: "Distinct images each HTTP data loader fetches per round (at most 10000).")
  var images = 1000

  @Option(help: "Flickr size suffix the loaders fetch.")
  var size = "b"

  func validate() throws {
    guard (1...10_000).contains(images) else {
      throw ValidationError("--images is 1 to 10000")
    }
    let sizes: Set<String> = ["s", "q", "t", "m", "n", "w", "", "z", "c", "b", "h", "k", "o"]
    guard sizes.contains(size) else {
      throw ValidationError("--size is one of s q t m n w z c b h k o, or \"\" (500 px)")
    }
  }

  func run() async throws {
    var report = BenchReport(benchmark: "loaders")
    try await LoaderComparison(images: images, size: size).run(&report)
    report.print(json: json)
  }
}
