import ArgumentParser

@main
struct Tessera: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tessera",
    abstract: "Long, smoothly scrolling lists and grids of remote images, in a terminal.",
    subcommands: [Gallery.self, Serve.self, Bench.self],
    defaultSubcommand: Gallery.self
  )
}
