import CVipsShim
import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraImages

/// Shared thumbnails are decoded by libpng, not libvips: the same pixels libvips gives, and
/// every number in a hostile file checked before memory is allocated for it.
@Suite(.timeLimit(.minutes(1))) struct SharedThumbnailDecodeTests {
  let decoder = ImageDecoder(maxPixels: 100_000_000)

  @Test(arguments: [".png", ".png[bitdepth=16]", ".png[palette]", ".png[compression=9]"])
  func libpngGivesTheColoursLibvipsGives(suffix: String) throws {
    let png = TestImages.gradient(width: 96, height: 64, as: suffix)
    let ours = try decoder.decodeSharedThumbnail(png)
    let vips = try #require(TestImages.decode(png, fitting: 96, 64))
    #expect(ours.size == PixelSize(width: vips.width, height: vips.height))
    #expect(ours.originalSize == PixelSize(width: 96, height: 64))
    let worst = zip(ours.pixels, vips.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    #expect(worst <= 1, "\(suffix): largest difference \(worst)")
  }

  @Test func theRequestsBoxIsAppliedAfterward() throws {
    let png = TestImages.gradient(width: 128, height: 96, as: ".png")
    let request = ImageRequest(
      url: URL(fileURLWithPath: "/photos/a.jpg"), targetSize: PixelSize(width: 38, height: 36),
      contentMode: .aspectFit, source: .localFolder)
    let image = try decoder.decodeThumbnail(
      png, for: request, originalSize: PixelSize(width: 4_000, height: 3_000))
    #expect(image.size == PixelSize(width: 38, height: 29))
    #expect(image.originalSize == PixelSize(width: 4_000, height: 3_000))
  }

  /// A header that claims more than the largest thumbnail, a truncated file, another format
  /// and noise after a PNG signature: each an error with a reason, nothing allocated for the
  /// claim, the process alive.
  @Test func hostileThumbnailsAreErrors() {
    let png = TestImages.gradient(width: 64, height: 48, as: ".png")
    let cases: [(String, Data)] = [
      ("a tall claim", Fixtures.pngHeader(width: 1, height: 70_000)),
      ("a wide claim", Fixtures.pngHeader(width: 2_000, height: 2)),
      ("a huge claim", Fixtures.pngHeader(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF)),
      ("truncated", png.prefix(png.count / 2)),
      ("a JPEG", TestImages.gradient(width: 16, height: 16, as: ".jpg")),
      (
        "noise",
        Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<200).map { UInt8($0) })
      ),
      ("empty", Data()),
      ("a chunk claiming 1.9 GB", CraftedPNG.overclaiming(0x7272_651D)),
    ]
    for (name, data) in cases {
      do {
        _ = try decoder.decodeSharedThumbnail(data)
        Issue.record("\(name) decoded")
      } catch {
        #expect(error.description.contains("shared thumbnail"), "\(name): \(error)")
      }
    }
  }

  /// libpng allocates and clears a chunk's claimed length before reading it: the claim is
  /// checked against the file first, and the reason names it.
  @Test func aChunksClaimIsCheckedBeforeLibpngAllocatesForIt() {
    var reason = ""
    let growth = PeakMemory.growth {
      do {
        _ = try decoder.decodeSharedThumbnail(CraftedPNG.overclaiming(0x7272_651D))
        reason = "decoded"
      } catch {
        reason = "\(error)"
      }
    }
    #expect(reason.contains("iTXt chunk claims 1920099613 bytes"), "\(reason)")
    #expect(growth < 256 << 20, "peak memory rose by \(growth >> 20) MB")
  }
}
