import Foundation
import TesseraUtilities

/// The desktop's own thumbnailers (freedesktop.org thumbnailer entries,
/// `…/share/thumbnailers/*.thumbnailer`), run as Nautilus and Thunar run them: the program an
/// entry names for a MIME type, in a process of its own, with a time limit, writing a PNG that
/// is then read like any other. Tessera has no video decoder of its own; `ffmpegthumbnailer`'s
/// entry gives a video its poster (a frame about 10 % in).
///
/// - Complexity: finding the entry is O(entries) once per process; a poster costs one
///   process, bounded by ``timeLimit``.
package struct SystemThumbnailer: Sendable, Equatable {
  /// The entry's command line, `%i`/`%u`/`%o`/`%s` not yet filled in.
  package let exec: [String]

  /// How long a thumbnailer may take before it is killed.
  package static let timeLimit = 10.0
  /// The PNG it writes is read up to this size.
  static let maxOutputBytes = 16 << 20

  /// The entry in `text` (a `.thumbnailer` file) when it handles `mimeType` and its program
  /// is on the `PATH` (`TryExec`); nil otherwise.
  package static func parse(_ text: String, for mimeType: String) -> SystemThumbnailer? {
    var inEntry = false
    var exec: String?
    var types: [Substring] = []
    var tryExec: String?
    for line in text.split(whereSeparator: \.isNewline) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("[") {
        inEntry = trimmed == "[Thumbnailer Entry]"
        continue
      }
      guard inEntry, let equals = trimmed.firstIndex(of: "=") else { continue }
      let key = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
      let value = String(trimmed[trimmed.index(after: equals)...])
      switch key {
      case "Exec": exec = value
      case "MimeType": types = value.split(separator: ";")
      case "TryExec": tryExec = value
      default: break
      }
    }
    guard let exec, types.contains(where: { $0 == mimeType }) else { return nil }
    let words = exec.split(separator: " ").map(String.init)
    guard let program = tryExec ?? words.first, isOnPath(program) else { return nil }
    return SystemThumbnailer(exec: words)
  }

  /// The first entry for `mimeType` in the thumbnailer folders of the XDG data directories
  /// (`$XDG_DATA_HOME`, then `$XDG_DATA_DIRS`, default `/usr/local/share:/usr/share`).
  package static func find(
    for mimeType: String,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> SystemThumbnailer? {
    let dirs =
      (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 }
      ?? "/usr/local/share:/usr/share").split(separator: ":").map(String.init)
    let folders = ([BaseDirectory.data.path(environment: environment)].compactMap { $0 } + dirs)
      .filter { $0.hasPrefix("/") }.map { $0 + "/thumbnailers" }
    for folder in folders {
      let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
      for name in names where name.hasSuffix(".thumbnailer") {
        guard
          case .success(let contents) = SafeFileRead.contents(
            path: folder + "/" + name, maxFileSize: 64 * 1024),
          let found = parse(String(decoding: contents.bytes, as: UTF8.self), for: mimeType)
        else { continue }
        return found
      }
    }
    return nil
  }

  /// The arguments for a thumbnail of `path` at most `size` pixels a side into `output`: each
  /// word of the entry's `Exec` with its codes filled in (``ThumbnailerExecCodes``).
  /// - Complexity: O(Exec + values put in).
  package func arguments(path: String, output: String, size: Int) -> [String] {
    let values: [Unicode.Scalar: String] = [
      "i": path, "u": ThumbnailURI(path: path).uri, "o": output, "s": String(size),
    ]
    return exec.map { ThumbnailerExecCodes.fill($0, with: values) }
  }

  /// Runs the thumbnailer for `path` and returns the PNG it wrote; nil when it failed, took
  /// longer than ``timeLimit`` or wrote nothing. Blocking: call it off the cooperative pool.
  package func thumbnail(ofFileAt path: String, size: Int) -> Data? {
    Self.sweepOnce
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(Self.folderPrefix)\(UUID().uuidString)", isDirectory: true)
    guard
      (try? FileManager.default.createDirectory(
        at: folder, withIntermediateDirectories: false,
        attributes: [.posixPermissions: 0o700])) != nil
    else { return nil }
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("poster.png").path
    let words = arguments(path: path, output: output, size: size)
    guard let program = words.first,
      ChildProcess.output(of: program, arguments: Array(words.dropFirst()), timeout: Self.timeLimit)
        != nil,
      case .success(let contents) = SafeFileRead.contents(
        path: output, maxFileSize: Self.maxOutputBytes)
    else { return nil }
    return contents.bytes
  }

  static let folderPrefix = "tessera-poster-"

  /// A gallery that quits while a poster is being made leaves its folder behind (no `defer`
  /// runs on `exit`): the first poster of a process removes this user's poster folders older
  /// than ten minutes, which no running thumbnailer still writes (they live 10 s at most).
  private static let sweepOnce: Void = {
    sweepStaleFolders(in: FileManager.default.temporaryDirectory, before: Date() - 600)
  }()

  /// Removes this user's poster folders in `folder` last changed before `cutoff`.
  /// - Complexity: O(entries of `folder`).
  static func sweepStaleFolders(in folder: URL, before cutoff: Date) {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    for name in names where name.hasPrefix(folderPrefix) {
      let url = folder.appendingPathComponent(name)
      guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
        (attributes[.ownerAccountID] as? NSNumber)?.uint32Value == getuid(),
        let modified = attributes[.modificationDate] as? Date, modified < cutoff
      else { continue }
      try? FileManager.default.removeItem(at: url)
    }
  }

  private static func isOnPath(_ program: String) -> Bool {
    if program.hasPrefix("/") { return access(program, X_OK) == 0 }
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").contains { access("\($0)/\(program)", X_OK) == 0 }
  }
}
