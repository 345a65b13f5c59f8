import ArgumentParser

struct PipelineBench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pipeline",
    abstract: "Memory-cache lookups, coalescing, decode + downsample vs vipsthumbnail, peak RSS.")

  func run() async throws {
    throw NotBuiltYet(what: "`tessera bench pipeline`")
  }
}
