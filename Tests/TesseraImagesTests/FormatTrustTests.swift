import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraImages

/// Decoders by trust: bytes reach a decoder only when their format (as libvips would pick its
/// loader from the header) is allowed for where they came from. Real bytes throughout.
@Suite(.timeLimit(.minutes(1))) struct FormatTrustTests {
  /// Loads `data` as a server would send it, under `contentType`.
  private func fromNetwork(
    _ data: Data, contentType: String = "image/jpeg"
  ) async -> (Result<Image, ImagePipelineError>, ImagePipeline) {
    let loader = HeldDataLoader { _ in .success(Fixtures.ok(data, type: contentType)) }
    let pipeline = makePipeline(loader)
    do {
      return (
        .success(try await pipeline.image(for: Fixtures.request("photo.jpg", size: 32))), pipeline
      )
    } catch {
      return (.failure(error), pipeline)
    }
  }

  /// Loads `data` from a file named `name` in a local folder.
  private func fromLocalFolder(
    _ data: Data, named name: String
  ) async -> Result<
    Image, ImagePipelineError
  > {
    let folder = TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent(name)
    do {
      try data.write(to: file)
    } catch {
      return .failure(.networkFailed("test setup: \(error)"))
    }
    let pipeline = makePipeline(HeldDataLoader())
    let request = ImageRequest(
      url: file, targetSize: PixelSize(width: 32, height: 32), source: .localFolder)
    do {
      return .success(try await pipeline.image(for: request))
    } catch {
      return .failure(error)
    }
  }

  @Test func anSVGServedAsJPEGIsRefusedByName() async {
    let (result, pipeline) = await fromNetwork(TestImages.svg())
    #expect(result.error == .unsupportedFormat("SVG"))
    #expect(
      result.error?.description
        == "SVG images are not shown: only photos (JPEG, PNG, WebP, GIF, HEIF) are decoded, "
        + "and TIFF or JPEG XL from a local folder")
    #expect(pipeline.statistics.decodes == 0)
  }

  @Test func aPDFServedAsJPEGIsRefusedByName() async {
    let (result, _) = await fromNetwork(TestImages.pdf())
    #expect(result.error == .unsupportedFormat("PDF"))
    #expect(result.error?.description.hasPrefix("PDF images are not shown") == true)
  }

  @Test func aTIFFFromTheNetworkIsRefusedButLoadsFromALocalFolder() async throws {
    let (network, _) = await fromNetwork(Fixtures.tiff, contentType: "image/tiff")
    #expect(network.error == .unsupportedFormat("TIFF"))
    let local = await fromLocalFolder(Fixtures.tiff, named: "scan.jpg")
    #expect(local.image?.size == PixelSize(width: 32, height: 24))
  }

  @Test func anSVGIsRefusedFromALocalFolderToo() async {
    let local = await fromLocalFolder(TestImages.svg(), named: "drawing.jpg")
    #expect(local.error == .unsupportedFormat("SVG"))
  }

  @Test(arguments: [".jpg[Q=90]", ".png", ".webp", ".gif"])
  func photosLoadFromTheNetwork(_ suffix: String) async {
    let (result, _) = await fromNetwork(TestImages.gradient(width: 64, height: 48, as: suffix))
    #expect(result.image?.size == PixelSize(width: 32, height: 24))
  }

  /// The refusal happens in the decode stage whatever the loader, so the disk cache keeps no
  /// copy of bytes that will never show either (the next load asks again, and is refused).
  @Test func aRefusedFormatIsNotKeptOnDisk() async throws {
    let directory = TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(at: directory) }
    let disk = try DiskCache(directory: directory)
    let loader = HeldDataLoader { _ in
      .success(
        Fixtures.ok(TestImages.svg(), type: "image/jpeg", headers: ["Cache-Control": "max-age=600"])
      )
    }
    let pipeline = makePipeline(loader, disk: disk)
    let request = Fixtures.request("drawing.jpg", size: 32)
    for _ in 0..<2 {
      await #expect(throws: ImagePipelineError.unsupportedFormat("SVG")) {
        try await pipeline.image(for: request)
      }
    }
    #expect(!disk.contains(request.url.absoluteString))
    #expect(loader.callCount == 2)
  }
}
