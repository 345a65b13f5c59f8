import ArgumentParser

struct LayoutBench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "layout",
    abstract: "Engine frame time on a million-row list and grid vs a linear-array baseline.")

  func run() async throws {
    throw NotBuiltYet(what: "`tessera bench layout`")
  }
}
