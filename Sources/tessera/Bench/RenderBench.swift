import ArgumentParser

struct RenderBench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "render",
    abstract: "Terminal frame encoding per protocol: time and bytes per frame, vs chafa.")

  func run() async throws {
    throw NotBuiltYet(what: "`tessera bench render`")
  }
}
