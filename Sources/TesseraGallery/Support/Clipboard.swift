import Foundation
import TesseraUtilities

/// The clipboard through the terminal: OSC 52 asks the terminal (or tmux, with
/// `set-clipboard on`) to set the selection, so `y` works over SSH without a local helper.
enum Clipboard {
  /// Longest text copied: terminals cap OSC 52 payloads (xterm at about 100 KB of base64).
  static let maxBytes = 64 * 1024

  /// `ESC ] 52 ; c ; base64(text) BEL`: a path's own bytes (also those of a name that is not
  /// UTF-8, `FileSystemName`), cut at `maxBytes` before a UTF-8 lead byte, never inside a
  /// character.
  static func osc52(copying text: String) -> [UInt8] {
    var bytes = FileSystemName.bytes(of: text)
    if bytes.count > maxBytes {
      var cut = maxBytes
      // At most three continuation bytes (10xxxxxx) end a character early.
      while cut > maxBytes - 3, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
      bytes.removeSubrange(cut...)
    }
    return Array("\u{1B}]52;c;".utf8) + Array(Data(bytes).base64EncodedString().utf8) + [0x07]
  }
}

/// Opens a file with the desktop's default application through `xdg-open`, when there is one.
enum ExternalOpener {
  /// The `xdg-open` on `PATH`, nil without one (a server over SSH usually has none).
  static func xdgOpen(
    path searchPath: String? = ProcessInfo.processInfo.environment["PATH"]
  )
    -> String?
  {
    for folder in (searchPath ?? "/usr/bin:/bin").split(separator: ":") {
      let candidate = "\(folder)/xdg-open"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// Starts `xdg-open path` detached from the terminal (its output to /dev/null, so nothing
  /// scribbles over the gallery) and says what happened, in words for the status bar.
  @MainActor
  static func open(_ path: String) -> String {
    guard let opener = xdgOpen() else { return "no xdg-open on this system: can't open it" }
    var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for descriptor: Int32 in [0, 1, 2] {
      posix_spawn_file_actions_addopen(
        &actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // Its own process group: a Ctrl-C in the gallery does not reach the viewer.
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
    posix_spawnattr_setpgroup(&attributes, 0)
    var pid: pid_t = 0
    let arguments = [opener, path]
    let cArguments = arguments.map { FileSystemName.withCString($0) { strdup($0) } } + [nil]
    defer { cArguments.forEach { free($0) } }
    let status = ChildEnvironment.withPointer {
      posix_spawn(&pid, opener, &actions, &attributes, cArguments, $0)
    }
    guard status == 0 else {
      return "xdg-open failed to start (\(String(cString: strerror(status))))"
    }
    // Reaped off the main actor, so it never lingers as a zombie.
    let child = pid
    DispatchQueue.global(qos: .utility).async {
      var code: Int32 = 0
      _ = waitpid(child, &code, 0)
    }
    return "opened with xdg-open"
  }
}
