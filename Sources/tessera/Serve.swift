import ArgumentParser

struct Serve: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Run the feed + image server (generated images, fault injection) on 127.0.0.1."
  )

  func run() async throws {
    throw NotBuiltYet(what: "the feed server")
  }
}
