import Foundation
import TesseraBenchSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Runs the commands `tessera bench folder` needs (tmux, vips, timg, chafa) through
/// `BenchSpawn`.
enum FolderBenchProcess {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// Runs `arguments` and returns its standard output (when `capturing`; a command that
  /// leaves a daemon behind, like `tmux new-session`, must not be captured: the daemon would
  /// hold the pipe open forever); throws when it exits non-zero.
  @discardableResult
  static func run(
    _ arguments: [String], environment: [String: String] = [:], capturing: Bool = true
  ) throws -> String {
    let command = ["/usr/bin/env"] + environment.map { "\($0.key)=\($0.value)" } + arguments
    let (status, output) = try spawn(command, capturing: capturing)
    guard status == 0 else {
      throw Failure(
        description: "\(arguments.prefix(3).joined(separator: " ")) exited with \(status)")
    }
    return output
  }

  /// Milliseconds `arguments` takes from start to exit, its output thrown away (as when a
  /// contact sheet is piped to a file; the same for every contender).
  /// Milliseconds `arguments` ran; NaN when it could not start or failed (a baseline that
  /// failed at once is no baseline).
  static func time(_ arguments: [String]) -> Double {
    let start = ContinuousClock.now
    guard let (status, _) = try? spawn(arguments, capturing: false), status == 0 else {
      return .nan
    }
    return (ContinuousClock.now - start).nanoseconds / 1e6
  }

  private static func spawn(_ arguments: [String], capturing: Bool) throws -> (Int32, String) {
    do {
      return try BenchSpawn.run(arguments, capturing: capturing)
    } catch {
      throw Failure(description: String(describing: error))
    }
  }
}
