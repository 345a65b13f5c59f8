import ArgumentParser
import Foundation
import TesseraGallery

/// `tessera doctor`: how images reach this terminal, and what would fix them.
struct Doctor: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Check how images reach this terminal, and what would fix them.",
    discussion: """
      Prints the terminal's name and version, the image protocol Tessera chooses and why, the \
      cell size and where it came from, tmux, SSH and passthrough state, and synchronized \
      output; draws one test image in each protocol the terminal claims; prints the settings \
      that would fix what is off (tmux.conf lines, --graphics). Exit status 0 when images \
      work, 1 when only half blocks do.
      """
  )

  func run() throws {
    let works: Bool
    do {
      works = try TerminalDoctor.run(environment: ProcessInfo.processInfo.environment)
    } catch {
      throw ValidationError("tessera doctor needs a terminal: \(error)")
    }
    if !works { throw ExitCode(1) }
  }
}
