import CProcess
import Foundation

/// The environment of every program Tessera starts (a key-handler, a desktop thumbnailer,
/// `xdg-open`, the peers a benchmark times): Tessera's own, without the VIPSHOME it set before
/// main to keep libvips from loading every module. A libvips program started with it would
/// load none. Every spawn goes through it: `ChildProcess` uses it, and so must any other.
package enum ChildEnvironment {
  /// Calls `body` with the environment as posix_spawn takes it, valid during the call.
  package static func withPointer<R>(
    _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> R
  ) -> R {
    guard let environment = tessera_child_environment() else { return body(environ) }
    defer { tessera_child_environment_free(environment) }
    return body(environment)
  }

  /// The environment as `Process.environment` takes it.
  package static var dictionary: [String: String] {
    withPointer { pointer in
      var result: [String: String] = [:]
      var index = 0
      while let entry = pointer?[index] {
        let text = String(cString: entry)
        if let equals = text.firstIndex(of: "=") {
          result[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        index += 1
      }
      return result
    }
  }
}
