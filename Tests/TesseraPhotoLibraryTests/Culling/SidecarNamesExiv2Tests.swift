import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraPhotoLibrary

/// exiv2, the library darktable, digiKam and gThumb read XMP with, reads a rating and tags
/// Tessera wrote in either name a sidecar has: Lightroom's stem (`IMG_2.xmp`) and darktable's
/// whole name (`IMG_2.CR2.xmp`). exiv2 picks a file's format by its bytes, so each name is
/// checked as the file it is, not by its extension.
@Suite(.timeLimit(.minutes(1))) struct SidecarNamesExiv2Tests {
  /// The value exiv2 reads for `key` in the sidecar at `path` (arrays joined by ", ").
  func exiv2(_ key: String, _ path: String) throws -> String {
    try Exiv2.run(["-q", "-K", key, "-Pv", path]).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  @Test(arguments: ["IMG_2.xmp", "IMG_2.CR2.xmp"])
  func exiv2ReadsTheRatingAndTagsInEitherName(_ name: String) async throws {
    try await TemporaryFolder.with { folder in
      let path = folder.appendingPathComponent(name).path
      let rated = try SidecarWriter.apply(.rating(4), toSidecarAt: path)
      #expect(rated.created)
      _ = try SidecarWriter.apply(
        .tags(add: ["wedding", "People/Ann"], remove: []), toSidecarAt: path)
      #expect(try exiv2("Xmp.xmp.Rating", path) == "4")
      // A keyword and the path's last level in dc:subject; the path in Lightroom's form
      // and in digiKam's (`SidecarTags`).
      #expect(try exiv2("Xmp.dc.subject", path) == "wedding, Ann")
      #expect(try exiv2("Xmp.lr.hierarchicalSubject", path) == "People|Ann")
      #expect(try exiv2("Xmp.digiKam.TagsList", path) == "People/Ann")
    }
  }
}
