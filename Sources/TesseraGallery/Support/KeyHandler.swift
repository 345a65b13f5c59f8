import Foundation
import TesseraTerminal
import TesseraUtilities

/// The key-handler, as nsxiv's: an executable the person writes at
/// `$XDG_CONFIG_HOME/tessera/key-handler` (`~/.config/tessera/key-handler`). `Ctrl-x` and a key
/// run it with the key as its one argument ("r", "C-r" for Ctrl-r) and the marked photos'
/// paths (or the selected one's) on its standard input, one a line, or each ended by NUL with
/// `-0`; it has the terminal until it exits. People add their own rotate, tag, copy or upload
/// this way.
struct KeyHandler {
  /// Where the handler is looked for; nil when no home or config folder is known.
  let path: String?
  /// `-0`: each path ends with NUL, so any name reaches the handler as one path.
  let nullSeparated: Bool

  init(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    nullSeparated: Bool = false
  ) {
    let config =
      environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
      ?? environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 + "/.config" : nil }
    path = config.map { $0 + "/tessera/key-handler" }
    self.nullSeparated = nullSeparated
  }

  /// What goes to the handler's standard input for `paths`, and how many were left out: with
  /// `-0` every path, each ended by NUL; else one a line, and a path with a line break in its
  /// name (which would reach the handler as two) is left out. O(bytes of the paths).
  /// A name that is not UTF-8 goes as its own bytes (`FileSystemName`).
  func input(for paths: [String]) -> (bytes: [UInt8], leftOut: Int) {
    if nullSeparated { return (paths.flatMap { FileSystemName.bytes(of: $0) + [0] }, 0) }
    let whole = paths.filter { !$0.contains("\n") && !$0.contains("\r") }
    return (whole.flatMap { FileSystemName.bytes(of: $0) + [0x0A] }, paths.count - whole.count)
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
    /// It ran and exited with `status`; `leftOut` paths had a line break in their name and
    /// were not given (without `-0`).
    case finished(key: String, status: Int32, leftOut: Int = 0)
    /// Nothing is at `path`, or it cannot be run.
    case missing(path: String)
    case failedToStart(path: String)

    var message: String {
      switch self {
      case .finished(let key, 0, 0): "key-handler \(key): done"
      case .finished(let key, let status, 0):
        "✗ key-handler \(key): exited with status \(status)"
      case .finished(let key, let status, let leftOut):
        "✗ key-handler \(key): \(status == 0 ? "done" : "exited with status \(status)"), "
          + "without \(leftOut) path\(leftOut == 1 ? "" : "s") with a line break in the name "
          + "(tessera -0 gives them NUL-separated)"
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
    let (input, leftOut) = input(for: paths)
    let status = await Task.detached {
      ChildProcess.run(path, arguments: [key], input: input, output: terminal)
    }.value
    guard let status else { return .failedToStart(path: path) }
    return .finished(key: key, status: status, leftOut: leftOut)
  }
}
