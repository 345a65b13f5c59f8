import Foundation

/// The user's folders as the XDG Base Directory specification names them: `$XDG_CACHE_HOME`,
/// `$XDG_CONFIG_HOME`, `$XDG_DATA_HOME`, `$XDG_STATE_HOME` when absolute (a relative one is
/// ignored, as the specification says), else their defaults under `$HOME`. Caches, the
/// key-handler, the Trash and the log are found here, one way.
package enum BaseDirectory: Sendable, CaseIterable {
  case cache, config, data, state

  private var variable: String {
    switch self {
    case .cache: "XDG_CACHE_HOME"
    case .config: "XDG_CONFIG_HOME"
    case .data: "XDG_DATA_HOME"
    case .state: "XDG_STATE_HOME"
    }
  }

  private var underHome: String {
    switch self {
    case .cache: ".cache"
    case .config: ".config"
    case .data: ".local/share"
    case .state: ".local/state"
    }
  }

  /// The folder's path, without a trailing slash; nil when neither its variable nor `HOME` is
  /// an absolute path.
  package func path(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String? {
    if let value = environment[variable], value.hasPrefix("/") { return Self.trimmed(value) }
    guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
    return Self.trimmed(home) + "/" + underHome
  }

  private static func trimmed(_ path: String) -> String {
    var path = path
    while path.count > 1, path.hasSuffix("/") { path.removeLast() }
    return path == "/" ? "" : path
  }
}

/// The cache folder (``BaseDirectory/cache``), or `~/.cache` of the user's home entry when
/// `HOME` is unset. Tessera's caches and the freedesktop.org thumbnail folders live under it.
package enum CacheHome {
  package static var url: URL {
    if let path = BaseDirectory.cache.path() {
      return URL(fileURLWithPath: path, isDirectory: true)
    }
    return FileManager.default.homeDirectoryForCurrentUser
      .appendingPathComponent(".cache", isDirectory: true)
  }
}
