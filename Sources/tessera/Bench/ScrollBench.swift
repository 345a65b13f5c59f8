import ArgumentParser

struct ScrollBench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scroll",
    abstract: "The seeds' reuse race on a virtual clock: naive vs seed vs tessera.")

  func run() async throws {
    throw NotBuiltYet(what: "`tessera bench scroll`")
  }
}
