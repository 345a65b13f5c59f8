import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraImages

/// A camera RAW from a local folder is shown by its largest embedded JPEG preview, turned
/// upright by the RAW's orientation; one without a preview says so on its tile.
@Suite(.timeLimit(.minutes(1)))
struct RawPreviewDecodeTests {
  func load(_ bytes: [UInt8], named name: String) async -> Result<Image, ImagePipelineError> {
    let folder = TemporaryFolder.make(prefix: "tessera-raw")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent(name)
    do {
      try Data(bytes).write(to: file)
      return .success(
        try await makePipeline(HeldDataLoader()).image(
          for: ImageRequest(url: file, source: .localFolder)))
    } catch let error as ImagePipelineError {
      return .failure(error)
    } catch {
      return .failure(.networkFailed("test setup: \(error)"))
    }
  }

  @Test func aCR2ShowsItsLargestPreviewUpright() async throws {
    // The largest preview is 48×32; orientation 6 turns it to 32×48.
    let image = try await load(RawFixtures.cr2(orientation: 6), named: "IMG_0001.CR2").get()
    #expect(image.size == PixelSize(width: 32, height: 48))
    let upright = try await load(RawFixtures.cr2(orientation: 1), named: "b.cr2").get()
    #expect(upright.size == PixelSize(width: 48, height: 32))
  }

  @Test func aCR3ShowsItsPRVWPreviewNotItsThumbnail() async throws {
    // PRVW is 40×30, THMB 16×12; orientation 8 turns the preview to 30×40.
    let image = try await load(RawFixtures.cr3(orientation: 8), named: "a.CR3").get()
    #expect(image.size == PixelSize(width: 30, height: 40))
  }

  @Test func aBrokenRAWSaysWhyOnItsTile() async {
    var truncated = RawFixtures.cr2()
    truncated.removeLast(truncated.count / 2)
    let result = await load(truncated, named: "c.nef")
    guard case .failure(.decodingFailed(let reason)) = result else {
      Issue.record("a broken RAW decoded: \(result)")
      return
    }
    #expect(
      reason.contains("NEF") || reason.contains("TIFF") || reason.contains("CR2"), "\(reason)")
  }
}
