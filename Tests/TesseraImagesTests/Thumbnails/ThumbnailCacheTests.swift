import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraImages

/// The freedesktop.org Thumbnail Managing Standard, against thumbnails written by hand from
/// the specification (`HandMadePNG`) and read back by a reader of the tests' own.
@Suite(.timeLimit(.minutes(1))) struct ThumbnailCacheTests {
  private let blue: (UInt8, UInt8, UInt8) = (20, 40, 230)
  private let green: (UInt8, UInt8, UInt8) = (30, 200, 40)
  private let red: (UInt8, UInt8, UInt8) = (220, 20, 20)

  @Test func aThumbnailAnotherProgramWroteIsUsedWithoutReadingTheOriginal() async throws {
    let scene = try ThumbnailScene()
    defer { scene.remove() }
    try scene.writeForeign("large", width: 256, height: 192, colour: blue)
    let pipeline = scene.pipeline()
    let response = try await pipeline.imageTask(with: scene.request(200, 150)).response
    #expect(response.origin == .thumbnailCache)
    #expect(response.image.size == PixelSize(width: 200, height: 150))
    #expect(response.image.centreIs(blue))  // the original is red
    #expect(pipeline.statistics.thumbnailHits == 1)
    #expect(pipeline.statistics.downloadsStarted == 0)  // not even read
    #expect(pipeline.statistics.thumbnailsWritten == 0)
  }

  /// zTXt or compressed iTXt, as some programs write them: inflated by libvips' PNG loader.
  @Test(arguments: [HandMadePNG.TextChunk.zTXt, .compressedITXt])
  func aThumbnailWithCompressedTextIsUsedToo(_ kind: HandMadePNG.TextChunk) async throws {
    let scene = try ThumbnailScene()
    defer { scene.remove() }
    try scene.writeForeign("large", width: 256, height: 192, colour: blue, kind: kind)
    let pipeline = scene.pipeline()
    let response = try await pipeline.imageTask(with: scene.request(200, 150)).response
    #expect(response.origin == .thumbnailCache)
    #expect(response.image.centreIs(blue))
    #expect(pipeline.statistics.downloadsStarted == 0)
    // Compressed text that names an older version of the file is still stale.
    let stale = try ThumbnailScene()
    defer { stale.remove() }
    try stale.writeForeign(
      "large", width: 256, height: 192, colour: blue, modified: stale.modified - 1, kind: kind)
    let fresh = try await stale.pipeline().imageTask(with: stale.request(200, 150)).response
    #expect(fresh.origin == .localFile)
    #expect(fresh.image.centreIs(red))
  }

  @Test func theSmallestSizeThatCoversTheBoxIsTaken() async throws {
    let scene = try ThumbnailScene()
    defer { scene.remove() }
    try scene.writeForeign("normal", width: 128, height: 96, colour: green)
    try scene.writeForeign("large", width: 256, height: 192, colour: blue)
    let small = try await scene.pipeline().image(for: scene.request(100, 75))
    #expect(small.centreIs(green))
    // 200×150 filled needs more than 128×96: the large one.
    let larger = try await scene.pipeline().image(for: scene.request(200, 150))
    #expect(larger.centreIs(blue))
  }

  @Test(arguments: ["modified", "uri", "size"])
  func aThumbnailOfAnotherFileOrAnOlderVersionIsIgnoredAndRewritten(_ wrong: String) async throws {
    let scene = try ThumbnailScene()
    defer { scene.remove() }
    switch wrong {
    case "modified":
      try scene.writeForeign(
        "large", width: 256, height: 192, colour: blue, modified: scene.modified - 1)
    case "uri":
      try scene.writeForeign(
        "large", width: 256, height: 192, colour: blue, uri: "file:///elsewhere/red%20photo.jpg")
    default:
      // 300 px does not fit the large square: not a large thumbnail.
      try scene.writeForeign("large", width: 300, height: 225, colour: blue)
    }
    let pipeline = scene.pipeline()
    let response = try await pipeline.imageTask(with: scene.request(200, 150)).response
    #expect(response.origin == .localFile)
    #expect(response.image.centreIs(red))
    #expect(pipeline.statistics.thumbnailsWritten == 1)
    let written = try #require(HandMadePNG.read(try Data(contentsOf: scene.url("large"))))
    #expect(written.text["Thumb::URI"] == scene.uri)
    #expect(written.text["Thumb::MTime"] == String(scene.modified))
  }

  @Test func theThumbnailTesseraWritesFollowsTheStandard() async throws {
    let scene = try ThumbnailScene()
    defer { scene.remove() }
    let pipeline = scene.pipeline()
    let response = try await pipeline.imageTask(with: scene.request(200, 150)).response
    #expect(response.origin == .localFile)
    #expect(response.image.originalSize == PixelSize(width: 400, height: 300))
    let file = scene.url("large")
    let png = try #require(HandMadePNG.read(try Data(contentsOf: file)))
    #expect(png.width == 256 && png.height == 192)
    let size = try FileManager.default.attributesOfItem(atPath: scene.original.path)[.size]
    #expect(png.text["Thumb::URI"] == scene.uri)
    #expect(scene.uri.hasSuffix("/photos/red%20photo.jpg"))
    #expect(png.text["Thumb::MTime"] == String(scene.modified))
    #expect(png.text["Thumb::Size"] == "\(size as? Int ?? -1)")
    #expect(png.text["Thumb::Mimetype"] == "image/jpeg")
    #expect(png.text["Thumb::Image::Width"] == "400")
    #expect(png.text["Thumb::Image::Height"] == "300")
    #expect(ThumbnailScene.mode(file) == 0o600)
    #expect(ThumbnailScene.mode(file.deletingLastPathComponent()) == 0o700)
    #expect(ThumbnailScene.mode(scene.thumbnails.directory) == 0o700)
    // Nothing half-written is left next to it.
    let names = try FileManager.default.contentsOfDirectory(
      atPath: file.deletingLastPathComponent().path)
    #expect(names == ["\(scene.hash).png"])
    // The pixels are the picture: libvips reads the file back as the red original.
    let decoded = try #require(TestImages.decode(try Data(contentsOf: file), fitting: 256, 256))
    #expect(decoded.rgb(128, 96).red > 180)
  }

  @Test func aSecondLaunchDecodesNothing() async throws {
    let scene = try ThumbnailScene()
    defer { scene.remove() }
    let first = try await scene.pipeline().image(for: scene.request(120, 90))
    let again = scene.pipeline()  // a new process: nothing in memory
    let response = try await again.imageTask(with: scene.request(120, 90)).response
    #expect(response.origin == .thumbnailCache)
    #expect(again.statistics.downloadsStarted == 0)
    #expect(response.image.size == first.size)
    #expect(response.image.originalSize == PixelSize(width: 400, height: 300))
    #expect(response.image.centreIs(red))
    #expect(FileManager.default.fileExists(atPath: scene.url("normal").path))
  }

  @Test func aBrokenOriginalIsRecordedAndNotTriedAgainUntilItChanges() async throws {
    let scene = try ThumbnailScene()
    defer { scene.remove() }
    var broken = try Data(contentsOf: scene.original)
    broken = broken.prefix(16) + Data(repeating: 0x5A, count: 4_000)
    try broken.write(to: scene.original)
    let first = scene.pipeline()
    let firstError = await #expect(throws: ImagePipelineError.self) {
      try await first.image(for: scene.request(120, 90))
    }
    // Said once, in words: never "decoding failed: decoding failed: …".
    #expect(firstError?.description == "decoding failed: this JPEG ends early")
    // The same process asks again (another size): the record it just wrote is not "earlier".
    let again = await #expect(throws: ImagePipelineError.self) {
      try await first.image(for: scene.request(60, 45))
    }
    #expect(again?.description == firstError?.description)
    let failure = scene.thumbnails.directory.appendingPathComponent(
      "fail/\(ThumbnailCache.failureFolderName)/\(scene.hash).png")
    let record = try #require(HandMadePNG.read(try Data(contentsOf: failure)))
    #expect(record.text["Thumb::URI"] == scene.uri)
    #expect(record.text["Thumb::MTime"] == String(scene.modified))
    #expect(ThumbnailScene.mode(failure) == 0o600)

    let second = scene.pipeline()
    let error = await #expect(throws: ImagePipelineError.self) {
      try await second.image(for: scene.request(120, 90))
    }
    #expect(second.statistics.downloadsStarted == 0)  // not read again
    #expect(
      error?.description
        == "decoding failed: this JPEG ends early (earlier; the file has not changed since)"
    )

    // Fixed (a new modification time): tried again, and shown.
    let red = try TestImages.encode(
      TestImages.solidPixels(width: 40, height: 30, colour: RGB(220, 20, 20)), width: 40,
      height: 30, as: ".jpg")
    try red.write(to: scene.original)
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSince1970: TimeInterval(scene.modified + 5))],
      ofItemAtPath: scene.original.path)
    let fixed = try await scene.pipeline().image(for: scene.request(120, 90))
    #expect(fixed.centreIs(self.red))
  }

  @Test func boxesLargerThanTheLargestSizeAndReloadsLeaveTheFoldersAlone() async throws {
    let scene = try ThumbnailScene()
    defer { scene.remove() }
    let pipeline = scene.pipeline()
    _ = try await pipeline.image(for: scene.request(1_500, 1_000, .aspectFit))
    var reload = scene.request(120, 90)
    reload.cachePolicy = .reload
    _ = try await pipeline.image(for: reload)
    #expect(pipeline.statistics.thumbnailsWritten == 0)
    #expect(!FileManager.default.fileExists(atPath: scene.thumbnails.directory.path))
  }

  @Test func aPanoramaInASquareTileGetsASizeThatCoversIt() async throws {
    let scene = try ThumbnailScene()
    defer { scene.remove() }
    let wide = try TestImages.encode(
      TestImages.solidPixels(width: 1_200, height: 200, colour: RGB(220, 20, 20)), width: 1_200,
      height: 200, as: ".jpg")
    try wide.write(to: scene.original)
    let pipeline = scene.pipeline()
    let image = try await pipeline.image(for: scene.request(100, 100))
    #expect(image.size == PixelSize(width: 100, height: 100))
    // 128×21 and 256×43 are too short for a 100 px tall tile: 1024×171 is not.
    let png = try #require(HandMadePNG.read(try Data(contentsOf: scene.url("xx-large"))))
    #expect(png.height >= 100)
    #expect(!FileManager.default.fileExists(atPath: scene.url("normal").path))
  }

  /// The URI and its MD5, checked against values computed by Python's urllib and hashlib
  /// (and the specification's own example).
  @Test(arguments: [
    (
      "/home/jens/photos/me.png", "file:///home/jens/photos/me.png",
      "c6ee772d9e49320e97ec29a7eb5b1697"
    ),
    (
      "/home/jens/Pictures/a b#1 é.jpg", "file:///home/jens/Pictures/a%20b%231%20%C3%A9.jpg",
      "276d3b3552bd4bfc633d11c0e0ddf9b6"
    ),
    (
      "/tmp/x/../photo 100%.JPG", "file:///tmp/photo%20100%25.JPG",
      "6f05caa4c8ce1d99612ec081ea255d9f"
    ),
    (
      "/a/!$&'()*+,-.:=@_~;?[]{}|^`\"<>.png",
      "file:///a/!$&'()*+,-.:=@_~%3B%3F%5B%5D%7B%7D%7C%5E%60%22%3C%3E.png",
      "b55087ade062b67cc922053189563210"
    ),
  ])
  func fileURIsAreEscapedAsGLibDoesAndHashedWithMD5(_ path: String, _ uri: String, _ md5: String) {
    let name = ThumbnailURI(path: path)
    #expect(name.uri == uri)
    #expect(name.hash == md5)
  }
}
