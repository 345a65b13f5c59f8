import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraPhotoLibrary

/// The walk names each photo's XMP sidecar from its folder's listing, by both names culling
/// tools write.
@Suite(.timeLimit(.minutes(1))) struct SidecarPairingTests {
  func write(_ text: String, to name: String, in root: URL) throws {
    try Data(text.utf8).write(to: root.appendingPathComponent(name))
  }

  /// The sidecar the walk named on each file, by the file's name.
  func sidecars(in root: URL) -> [String: String] {
    var found: [String: String] = [:]
    FolderWalker(roots: [root.path]).walk { batch in
      for file in batch.files { found[file.name] = file.sidecar?.name ?? "-" }
      return true
    }
    return found
  }

  @Test func eachPhotoGetsTheFirstOfItsCandidateSidecars() async throws {
    try await TemporaryFolder.with(prefix: "tessera-sidecars") { root in
      for name in [
        "own.jpg", "own.jpg.xmp",  // darktable, digiKam
        "stem.NEF", "stem.xmp",  // Lightroom
        "pair.JPG", "pair.CR2", "pair.CR2.xmp",  // a RAW+JPEG pair, rated on its RAW
        "both.jpg", "both.jpg.xmp", "both.xmp",  // the photo's own comes first
        "upper.png", "upper.png.XMP",
        "mixed.png", "mixed.png.Xmp",  // neither spelling a tool writes
        "none.webp", "orphan.xmp",
      ] {
        try write("x", to: name, in: root)
      }
      // A link is never a sidecar: a write through it would land elsewhere.
      try write("x", to: "linked.jpg", in: root)
      try FileManager.default.createSymbolicLink(
        atPath: root.appendingPathComponent("linked.jpg.xmp").path,
        withDestinationPath: root.appendingPathComponent("orphan.xmp").path)

      let found = sidecars(in: root)
      #expect(
        found == [
          "own.jpg": "own.jpg.xmp", "stem.NEF": "stem.xmp", "pair.JPG": "pair.CR2.xmp",
          "both.jpg": "both.jpg.xmp", "upper.png": "upper.png.XMP", "mixed.png": "-",
          "none.webp": "-", "linked.jpg": "-",
        ], "\(found)")
    }
  }

  @Test func theSidecarKeepsItsOwnSizeAndTime() async throws {
    try await TemporaryFolder.with(prefix: "tessera-sidecars") { root in
      try write("x", to: "a.jpg", in: root)
      try write("twelve bytes", to: "a.xmp", in: root)
      let sidecar = root.appendingPathComponent("a.xmp").path
      let then = Date(timeIntervalSince1970: 1_700_000_000.5)
      try FileManager.default.setAttributes([.modificationDate: then], ofItemAtPath: sidecar)
      var files: [WalkedFile] = []
      FolderWalker(roots: [root.path]).walk { batch in
        files += batch.files
        return true
      }
      #expect(files.count == 1)
      #expect(files.first?.sidecar == XMPSidecar(name: "a.xmp", size: 12, modified: then))
      #expect(files.first?.sidecar?.path(besidePhoto: files[0].path) == sidecar)
    }
  }
}
