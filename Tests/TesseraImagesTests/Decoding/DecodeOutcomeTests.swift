import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraImages

/// The decode stage hands forward what it made and touches no cache: a thumbnail of a local
/// original comes back encoded for the thumbnail stage, an original that does not decode is
/// named for the failure folder, downloaded bytes that do not decode are named for the disk
/// stage to drop. Nothing is written by the decode itself.
@Suite(.timeLimit(.minutes(1))) struct DecodeOutcomeTests {
  let decoder = ImageDecoder()

  func contents(_ folder: URL) -> [String] {
    (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String]) ?? []
  }

  @Test func aLocalOriginalsThumbnailIsHandedForwardNotWritten() throws {
    let scene = try ThumbnailScene()
    defer { scene.remove() }
    let request = scene.request(200, 150)
    let original = try #require(ThumbnailOriginal.at(path: scene.original.path))
    let data = try Data(contentsOf: scene.original)
    let outcome = PipelineCore.decode(
      data, origin: .localFile, request: request,
      plan: .write(
        original, sizes: ThumbnailSize.candidates(for: PixelSize(width: 200, height: 150))),
      decoder: decoder, makesThumbnails: true)
    let image = try outcome.result.get()
    #expect(image.size == PixelSize(width: 200, height: 150))
    let made = try #require(outcome.thumbnail)
    #expect(made.original == original)
    #expect(made.png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    #expect(outcome.undecodableOriginal == nil && outcome.undecodableDiskEntry == nil)
    #expect(contents(scene.folder.appendingPathComponent("cache")).isEmpty)
  }

  @Test func anOriginalThatDoesNotDecodeIsNamedForTheFailureFolder() throws {
    let scene = try ThumbnailScene()
    defer { scene.remove() }
    try Data("not a photo at all".utf8).write(to: scene.original)
    let original = try #require(ThumbnailOriginal.at(path: scene.original.path))
    let outcome = PipelineCore.decode(
      try Data(contentsOf: scene.original), origin: .localFile, request: scene.request(200, 150),
      plan: .write(original, sizes: [.large]), decoder: decoder, makesThumbnails: true)
    #expect(outcome.result.error != nil)
    #expect(outcome.undecodableOriginal == original)
    #expect(outcome.thumbnail == nil && outcome.undecodableDiskEntry == nil)
  }

  @Test func downloadedBytesThatDoNotDecodeAreNamedForTheDiskStage() {
    let request = Fixtures.request("broken.jpg", size: 64)
    let outcome = PipelineCore.decode(
      Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 16]), origin: .diskCache, request: request, plan: nil,
      decoder: decoder, makesThumbnails: true)
    #expect(outcome.result.error != nil)
    #expect(outcome.undecodableDiskEntry == request.diskKey)
    #expect(outcome.undecodableOriginal == nil)
    // A box that is not positive condemns the request, not the bytes.
    let zero = ImageRequest(url: request.url, targetSize: PixelSize(width: 0, height: 10))
    let sized = PipelineCore.decode(
      TestImages.gradient(width: 8, height: 8, as: ".png"), origin: .network, request: zero,
      plan: nil, decoder: decoder, makesThumbnails: false)
    #expect(sized.result.error != nil)
    #expect(sized.undecodableDiskEntry == nil)
  }
}
