import Foundation

/// Fresh folders under the system's temporary folder, one per test, so tests that run in
/// parallel never see each other's files.
package enum TemporaryFolder {
  /// A new empty folder named `prefix-<UUID>`. Should the system refuse to create it, the
  /// test's first write into it fails, naming the path.
  package static func make(prefix: String = "tessera-tests") -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// Runs `body` with a new empty folder, removed afterwards, pass or fail.
  package static func with<Result>(
    prefix: String = "tessera-tests", _ body: (URL) async throws -> Result
  ) async rethrows -> Result {
    let folder = make(prefix: prefix)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
  }

  /// A new empty folder that is removed, with everything in it, when the last reference to it
  /// goes: a suite that keeps one in a property leaves nothing behind after each test, pass or
  /// fail. (A local one may be released after its last use; locals use `with` instead.)
  package final class Owned: Sendable {
    package let url: URL

    package init(prefix: String = "tessera-tests") {
      url = TemporaryFolder.make(prefix: prefix)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
  }
}
