import Foundation
import TesseraTerminal
import TesseraUtilities

/// The key-handler, as nsxiv's: an executable the person writes at
/// `$XDG_CONFIG_HOME/tessera/key-handler` (`~/.config/tessera/key-handler`). `Ctrl-x` and a key
/// run it with the key as its one argument ("r", "C-r" for Ctrl-r) and the marked photos'
/// paths (or the selected one's) on its standard input, one a line; it has the terminal
/// until it exits. People add their own rotate, tag, copy or upload this way.
struct KeyHandler {
  /// Where the handler is looked for; nil when no home or config folder is known.
  let path: String?

  init(environment: [String: String] = ProcessInfo.processInfo.environment) {
    let config =
      environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
      ?? environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 + "/.config" : nil }
    path = config.map { $0 + "/tessera/key-handler" }
  }

  /// The argument for `key`, as nsxiv names keys: the character, or "C-" and the letter for
  /// Ctrl; nil for keys that name nothing (Esc cancels).
  static func argument(for key: Key) -> String? {
    switch key {
    case .character(let character): String(character)
    case .control(let letter): "C-\(letter)"
    case .enter: "Return"
    case .tab: "Tab"
    case .delete: "Delete"
    case .function(let number): "F\(number)"
    default: nil
    }
  }

  /// What became of a run, for the status bar.
  enum Outcome: Equatable {
    case finished(key: String, status: Int32)
    /// Nothing is at `path`, or it cannot be run.
    case missing(path: String)
    case failedToStart(path: String)

    var message: String {
      switch self {
      case .finished(let key, 0): "key-handler \(key): done"
      case .finished(let key, let status): "✗ key-handler \(key): exited with status \(status)"
      case .missing(let path): "no key-handler: make \(path) an executable (see tessera --help)"
      case .failedToStart(let path): "✗ could not start \(path)"
      }
    }
  }

  /// Runs the handler for `key` with `paths` on its standard input and `terminal` as its
  /// output, off the main actor; returns when it exits.
  func run(key: String, paths: [String], terminal: Int32) async -> Outcome {
    guard let path, access(path, X_OK) == 0 else {
      return .missing(path: path ?? "~/.config/tessera/key-handler")
    }
    let input = Array(paths.map { $0 + "\n" }.joined().utf8)
    let status = await Task.detached {
      ChildProcess.run(path, arguments: [key], input: input, output: terminal)
    }.value
    guard let status else { return .failedToStart(path: path) }
    return .finished(key: key, status: status)
  }
}
