import Foundation
import TesseraPhotoFormats
import TesseraTestSupport
import Testing

@testable import TesseraPhotoLibrary

/// A sidecar another tool saves between Tessera's read and its write is read and merged
/// again (`SidecarWriter.attempts`), never overwritten with what Tessera read before. The
/// other tool saves in `apply`'s `beforeWrite` seam, the moment a race would need to hit.
@Suite(.timeLimit(.minutes(1))) struct SidecarConcurrentChangeTests {
  @Test func anotherToolsSaveInTheMomentIsKeptBesideTheRating() async throws {
    try await TemporaryFolder.with { folder in
      let path = folder.appendingPathComponent("IMG_3.CR2.xmp").path
      try Data(SidecarWriterTests.darktableSidecar.utf8).write(to: URL(fileURLWithPath: path))
      var saves = 0
      let written = try SidecarWriter.apply(.rating(4), toSidecarAt: path) {
        // darktable's user, in exiftool's hands: a new label and white balance, once.
        guard saves == 0 else { return }
        saves += 1
        do {
          try ExifTool.run([
            "-q", "-overwrite_original", "-XMP-xmp:Label=Green", "-XMP-crs:ColorTemperature=6100",
            path,
          ])
        } catch {
          Issue.record("exiftool: \(error)")
        }
      }
      #expect(saves == 1)
      // What was read again: the rating before is still darktable's, the label exiftool's.
      #expect(written.ratingBefore == "2" && written.labelBefore == "Green")
      #expect(
        written.culling == PhotoCulling(rating: 4, label: .green, tags: ["Places/France/Paris"]))
      let tags = try SidecarWriterTests().exiftoolTags(path)
      #expect(tags["XMP-xmp:Rating"] == "4", "\(tags)")
      #expect(tags["XMP-xmp:Label"] == #""Green""#, "\(tags)")
      #expect(tags["XMP-crs:ColorTemperature"] == "6100", "\(tags)")
      #expect(tags["XMP-darktable:History"]?.contains("colorbalancergb") == true, "\(tags)")
    }
  }

  /// A sidecar that changes on every attempt is left as the other tool last saved it.
  @Test func aSidecarThatKeepsChangingIsLeftAsTheOtherToolSavedIt() async throws {
    try await TemporaryFolder.with { folder in
      let path = folder.appendingPathComponent("IMG_3.xmp").path
      let url = URL(fileURLWithPath: path)
      try Data(XMPNamespaces.packet(attributes: #"xmp:Rating="1""#)).write(to: url)
      var saves = 0
      #expect {
        try SidecarWriter.apply(.rating(5), toSidecarAt: path) {
          saves += 1
          // A rating one longer each time: the size changes, and an atomic write the inode.
          let rating = String(repeating: "1", count: saves + 1)
          try? Data(XMPNamespaces.packet(attributes: #"xmp:Rating="\#(rating)""#)).write(
            to: url, options: .atomic)
        }
      } throws: { error in
        "\(error)".contains("kept changing")
      }
      #expect(saves == SidecarWriter.attempts)
      let last = String(repeating: "1", count: SidecarWriter.attempts + 1)
      #expect(
        try Data(contentsOf: url)
          == Data(XMPNamespaces.packet(attributes: #"xmp:Rating="\#(last)""#)))
    }
  }
}
