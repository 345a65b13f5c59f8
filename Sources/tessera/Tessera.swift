import ArgumentParser
import TesseraBench

@main
struct Tessera: AsyncParsableCommand {
  /// The version `tessera --version` prints (also in the man page).
  static let version = "0.11.0"

  static let configuration = CommandConfiguration(
    commandName: "tessera",
    abstract:
      "Long, smoothly scrolling lists and grids of images — your folders or a feed — in a terminal.",
    usage: """
      tessera [PATH|URL]… [options]
      tessera <subcommand> [options]
      """,
    discussion: """
      `tessera ~/Pictures` walks the folder and shows its photos at once, newest first by the \
      date taken; `tessera` alone shows generated photos from its embedded feed server. A \
      folder named like a subcommand is given as ./serve.
      """,
    version: version,
    subcommands: [Gallery.self, Serve.self, Info.self, Doctor.self, Bench.self],
    defaultSubcommand: Gallery.self
  )
}
