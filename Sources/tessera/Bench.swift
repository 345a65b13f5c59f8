import ArgumentParser

struct Bench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Measure the pipeline, the layout engine, rendering and the seeds' scroll race."
  )

  func run() async throws {
    throw NotBuiltYet(what: "the benchmarks")
  }
}
