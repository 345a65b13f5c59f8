import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraPhotoLibrary

/// The stars Lightroom or digiKam wrote into a photo's own XMP (exiftool writes them here as
/// they do): read with the header, over the camera's EXIF Rating; a sidecar's still counts
/// over both (`PhotoCatalogTests.byRating…`, `PhotoLibraryTests`).
@Suite(.timeLimit(.minutes(1))) struct EmbeddedRatingTests {
  let folder = TemporaryFolder.Owned(prefix: "tessera-embedded-rating")

  private func photo(_ name: String, _ tags: [String]) throws -> String {
    let path = folder.url.appendingPathComponent(name).path
    try TestMedia.make(path, from: "testsrc=size=64x48", arguments: ["-frames:v", "1"])
    if !tags.isEmpty { try ExifTool.run(["-q", "-overwrite_original"] + tags + [path]) }
    return path
  }

  @Test(arguments: ["a.jpg", "a.png", "a.tif"])
  func theFilesXMPRatingIsRead(name: String) throws {
    let path = try photo(name, ["-XMP-xmp:Rating=4"])
    #expect(LocalPhotoHeaderReader().header(ofFileAt: path)?.exif?.rating == 4)
  }

  @Test func theXMPRatingCountsOverTheCamerasEXIFRating() throws {
    let path = try photo("both.jpg", ["-EXIF:Rating=5", "-XMP-xmp:Rating=2"])
    #expect(LocalPhotoHeaderReader().header(ofFileAt: path)?.exif?.rating == 2)
    let cameraOnly = try photo("camera.jpg", ["-EXIF:Rating=3"])
    #expect(LocalPhotoHeaderReader().header(ofFileAt: cameraOnly)?.exif?.rating == 3)
  }

  @Test func aRatingOffTheScaleOrAnXMPWithoutOneIsNone() throws {
    let rejected = try photo("rejected.jpg", ["-XMP-xmp:Rating=-1"])
    #expect(LocalPhotoHeaderReader().header(ofFileAt: rejected)?.exif?.rating == nil)
    let titled = try photo("titled.jpg", ["-XMP-dc:Title=Harbour"])
    #expect(LocalPhotoHeaderReader().header(ofFileAt: titled)?.exif?.rating == nil)
  }
}
