import Foundation
import Testing

@testable import TesseraImages

/// A tile's poster is the freedesktop.org large size, made faster than the detail view's: the
/// two are different fetches, so a tile never waits for the large one.
struct VideoPosterSizeTests {
  private func request(_ path: String, _ side: Int?) -> ImageRequest {
    ImageRequest(
      url: URL(fileURLWithPath: path),
      targetSize: side.map { PixelSize(width: $0, height: $0 / 2) },
      source: .localFolder)
  }

  @Test func aTileAsksForTheLargeSizeAndTheDetailViewForTheLargest() {
    #expect(VideoPoster.side(for: PixelSize(width: 256, height: 100)) == 256)
    #expect(VideoPoster.side(for: PixelSize(width: 100, height: 257)) == 1024)
    #expect(VideoPoster.side(for: nil) == 1024)
    let tile = FetchKey(request("/p/clip.mp4", 200))
    let detail = FetchKey(request("/p/clip.mp4", 1500))
    #expect(tile.posterSide == 256 && detail.posterSide == 1024)
    #expect(tile != detail)
    // Two tiles of one video share a fetch; a photo has no poster.
    #expect(tile == FetchKey(request("/p/clip.mp4", 240)))
    #expect(FetchKey(request("/p/photo.jpg", 200)).posterSide == nil)
  }
}
