import ArgumentParser

struct Bench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Measure the pipeline, the layout engine, rendering and the seeds' scroll race.",
    subcommands: [PipelineBench.self, LayoutBench.self, RenderBench.self, ScrollBench.self]
  )

  @Flag(help: "Print one JSON object instead of tables.") var json = false

  func run() async throws {
    throw NotBuiltYet(what: "`tessera bench` with no subcommand")
  }
}
