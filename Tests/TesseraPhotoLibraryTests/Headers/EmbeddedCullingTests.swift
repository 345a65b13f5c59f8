import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraPhotoLibrary

/// What Lightroom or digiKam wrote into a photo's own XMP (exiftool writes it here as they
/// do): the stars, read with the header over the camera's EXIF Rating, and the label, tags
/// and title; a sidecar's say still counts over the file's (`PhotoCatalogTests.byRating…`,
/// `PhotoLibraryCullingTests`).
@Suite(.timeLimit(.minutes(1))) struct EmbeddedCullingTests {
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

  static let decided = [
    "-XMP-xmp:Label=Blue", "-XMP-dc:Subject=wedding", "-XMP-lr:HierarchicalSubject=People|Ann",
    "-XMP-dc:Title=Harbour at dusk",
  ]

  @Test(arguments: ["a.jpg", "a.png", "a.tif", "a.webp"])
  func theFilesLabelTagsAndTitleAreRead(name: String) throws {
    let path = try photo(name, Self.decided)
    let header = LocalPhotoHeaderReader().header(ofFileAt: path)
    #expect(
      header?.culling
        == PhotoCulling(label: .blue, tags: ["wedding", "People/Ann"], title: "Harbour at dusk"),
      "\(String(describing: header))")
    #expect(header?.rating == nil)
  }

  /// A HEIC's or AVIF's XMP is an item of its own (`mime`, XMP's content type), beside its
  /// Exif item: read with the header as the other containers' are.
  @Test(arguments: [".avif", ".heic[compression=hevc]"])
  func aHEIFFilesXMPItemIsRead(suffix: String) throws {
    let name = "a" + String(suffix.prefix { $0 != "[" })
    let path = folder.url.appendingPathComponent(name).path
    try TestImages.gradient(width: 64, height: 48, as: suffix).write(
      to: URL(fileURLWithPath: path))
    try ExifTool.run(["-q", "-overwrite_original", "-XMP-xmp:Rating=4"] + Self.decided + [path])
    let header = LocalPhotoHeaderReader().header(ofFileAt: path)
    #expect(
      header?.culling
        == PhotoCulling(label: .blue, tags: ["wedding", "People/Ann"], title: "Harbour at dusk"),
      "\(String(describing: header))")
    #expect(header?.rating == 4)
    #expect(header?.pixelSize?.width == 64 && header?.pixelSize?.height == 48)
  }

  /// An AVIF cut anywhere — its XMP item's name or content type without their NUL, its
  /// packet halfway — gives the whole file's culling or none: never a part, never a crash.
  @Test func everyPrefixOfAHEIFWithXMPGivesItsCullingOrNone() throws {
    let path = folder.url.appendingPathComponent("cut.avif").path
    try TestImages.gradient(width: 64, height: 48, as: ".avif").write(
      to: URL(fileURLWithPath: path))
    try ExifTool.run(["-q", "-overwrite_original"] + Self.decided + [path])
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let whole = try #require(PhotoHeader(bytes: bytes).culling)
    var cut = 0
    for length in 0..<bytes.count {
      let culling = PhotoHeader(bytes: Array(bytes.prefix(length))).culling
      if culling == nil { cut += 1 }
      #expect(culling == nil || culling == whole, "\(length) bytes: \(String(describing: culling))")
    }
    #expect(cut > 0)
  }

  /// Once a sidecar says anything, its label, tags and title are the photo's: the file's
  /// give way whole, as darktable and digiKam read a photo once they have its sidecar. The
  /// file's rating still counts when the sidecar gives none.
  @Test func aSidecarsSayReplacesTheFilesButItsRating() throws {
    let path = try photo("both.jpg", Self.decided + ["-XMP-xmp:Rating=2"])
    let sidecar = path + ".xmp"
    try ExifTool.run(["-q", "-o", sidecar, "-XMP-dc:Subject=harbour"])
    let header = LocalPhotoHeaderReader().header(ofFileAt: path, sidecar: sidecar)
    #expect(header?.culling == PhotoCulling(tags: ["harbour"]))
    #expect(header?.rating == 2)
  }
}
