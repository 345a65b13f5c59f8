import Foundation

/// The user's cache folder as the XDG Base Directory specification names it:
/// `$XDG_CACHE_HOME` when it is an absolute path (a relative one is ignored, as the
/// specification says), else `~/.cache`. Tessera's caches and the freedesktop.org thumbnail
/// folders live under it.
package enum CacheHome {
  package static var url: URL {
    if let xdg = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
      return URL(fileURLWithPath: xdg, isDirectory: true)
    }
    return FileManager.default.homeDirectoryForCurrentUser
      .appendingPathComponent(".cache", isDirectory: true)
  }
}
