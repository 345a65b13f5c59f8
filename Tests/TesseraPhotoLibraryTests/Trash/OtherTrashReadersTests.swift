import Foundation
import TesseraUtilities
import Testing

@testable import TesseraPhotoLibrary

/// Other implementations of the specification on the same trash: KDE restores what Tessera
/// trashed, and Tessera reads and restores what GNOME trashed. Both programs are run with
/// the sandbox's `XDG_DATA_HOME`, which they honour, and neither needs a session bus for
/// this.
///
/// (`gio trash --list` would be the natural GNOME check, but listing `trash:///` needs
/// gvfs's trash daemon: without it, as here, gio answers "Operation not supported".
/// `gio trash FILE` is GLib's own code and works anywhere, so GNOME is checked the other
/// way round.)
@Suite(.timeLimit(.minutes(1))) struct OtherTrashReadersTests {
  static let awkward = "my photos 100%/été 🌅 #1+2.jpg"

  @Test(.enabled(if: TrashSandbox.program("ktrash5") != nil, "KDE's ktrash5 is not installed"))
  func kdeRestoresWhatTesseraTrashed() throws {
    try TrashSandbox.with { sandbox in
      let original = try sandbox.file(Self.awkward, "for KDE")
      let trashed = try sandbox.trash.trash(original)
      let runtime = sandbox.root + "/runtime"
      try FileManager.default.createDirectory(
        atPath: runtime, withIntermediateDirectories: false,
        attributes: [.posixPermissions: 0o700])
      try FileManager.default.createDirectory(
        atPath: sandbox.root + "/home", withIntermediateDirectories: false)
      // KDE names home trash entries trash:/0-NAME, NAME as in files/, percent-encoded.
      let name = (trashed.trashedPath as NSString).lastPathComponent
      let output = ChildProcess.output(
        of: "env",
        arguments: [
          "XDG_DATA_HOME=\(sandbox.dataHome)", "XDG_RUNTIME_DIR=\(runtime)",
          "HOME=\(sandbox.root)/home", "ktrash5", "--restore",
          "trash:/0-" + TrashInfo.percentEncoded(name),
        ], timeout: 30)
      #expect(output != nil, "ktrash5 did not finish")
      // KDE found the file where our Path says it was: it decoded our percent-encoding.
      #expect(TrashSandbox.contents(original) == "for KDE")
      #expect(!TrashSandbox.exists(trashed.trashedPath))
      #expect(!TrashSandbox.exists(trashed.infoPath))
    }
  }

  @Test(.enabled(if: TrashSandbox.program("gio") != nil, "GLib's gio is not installed"))
  func tesseraReadsAndRestoresWhatGnomeTrashed() throws {
    try TrashSandbox.with { sandbox in
      let original = try sandbox.file(Self.awkward, "from GNOME")
      let output = ChildProcess.output(
        of: "env", arguments: ["XDG_DATA_HOME=\(sandbox.dataHome)", "gio", "trash", original],
        timeout: 30)
      #expect(output != nil, "gio trash failed")
      #expect(!TrashSandbox.exists(original))
      let name = (original as NSString).lastPathComponent
      let trashed = TrashedFile(
        originalPath: original, trashedPath: sandbox.homeTrash + "/files/" + name,
        infoPath: sandbox.homeTrash + "/info/" + name + ".trashinfo")
      // GLib percent-encodes exactly as Tessera does.
      let text = try #require(TrashSandbox.contents(trashed.infoPath))
      #expect(text.contains("\nPath=\(TrashInfo.percentEncoded(original))\n"))
      let info = try TrashInfo.read(trashed.infoPath)
      #expect(info.path == original)
      let date = try #require(info.deletionDate(in: .current))
      #expect(abs(date.timeIntervalSinceNow) < 600)

      try sandbox.trash.restore(trashed)
      #expect(TrashSandbox.contents(original) == "from GNOME")
      #expect(!TrashSandbox.exists(trashed.infoPath))
    }
  }
}
