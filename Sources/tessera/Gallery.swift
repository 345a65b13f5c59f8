import ArgumentParser

struct Gallery: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Browse a photo feed, a users list or a folder as a scrolling grid (default)."
  )

  func run() async throws {
    throw NotBuiltYet(what: "the gallery")
  }
}
