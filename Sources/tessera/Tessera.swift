import ArgumentParser
import Foundation
import TesseraBench
import TesseraUtilities

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
    subcommands: [Gallery.self, Serve.self, Info.self, Find.self, Doctor.self, Bench.self],
    defaultSubcommand: Gallery.self
  )

  /// Parses the arguments as the process got them: `CommandLine.arguments` repairs bytes that
  /// are not UTF-8, which made a file of such a name one that "does not exist"; here each
  /// keeps its bytes (`FileSystemName`).
  static func main() async {
    let arguments = (1..<Int(CommandLine.argc)).compactMap { index in
      CommandLine.unsafeArgv[index].map { argument in
        FileSystemName.string(
          UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
      }
    }
    await main(arguments)
  }
}
