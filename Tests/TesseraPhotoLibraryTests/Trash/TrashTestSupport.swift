import Foundation
import TesseraTestSupport

@testable import TesseraPhotoLibrary

#if canImport(Glibc)
  import Glibc
#endif

/// A home trash of a test's own: `XDG_DATA_HOME` is a folder inside `root`, the clock is
/// fixed and the time zone is +05:30 (a half-hour offset, so a `DeletionDate` written in UTC
/// or in whole hours would show).
struct TrashSandbox {
  static let clock = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14T22:13:20Z
  static let zone = TimeZone(secondsFromGMT: 5 * 3600 + 1800)!
  static let localClock = "2023-11-15T03:43:20"

  let root: String
  var dataHome: String { root + "/data" }
  var homeTrash: String { dataHome + "/Trash" }

  var trash: FreedesktopTrash {
    FreedesktopTrash(
      environment: ["XDG_DATA_HOME": dataHome, "HOME": root + "/home"],
      now: { Self.clock }, timeZone: Self.zone)
  }

  /// Runs `body` with a sandbox in a new temporary folder (symbolic links in its path
  /// resolved, as the trash resolves them), removed afterwards.
  static func with(_ body: (TrashSandbox) throws -> Void) rethrows {
    let folder = TemporaryFolder.make(prefix: "tessera-trash")
    defer { try? FileManager.default.removeItem(at: folder) }
    try body(TrashSandbox(root: resolved(folder.path)))
  }

  /// Makes a file (and its folders) under `root`, returning its path.
  @discardableResult
  func file(_ relative: String, _ contents: String) throws -> String {
    try Self.file(root + "/" + relative, contents)
  }

  @discardableResult
  static func file(_ path: String, _ contents: String) throws -> String {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  static func contents(_ path: String) -> String? {
    FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
  }

  static func exists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
  }

  static func mode(_ path: String) -> Int {
    var info = stat()
    return lstat(path, &info) == 0 ? Int(info.st_mode & 0o7777) : -1
  }

  static func device(_ path: String) -> UInt64? {
    var info = stat()
    return stat(path, &info) == 0 ? UInt64(info.st_dev) : nil
  }

  static func resolved(_ path: String) -> String {
    guard let pointer = realpath(path, nil) else { return path }
    defer { free(pointer) }
    return String(cString: pointer)
  }

  /// The program's path when it is on `PATH`.
  static func program(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }
}
