import Foundation
import TesseraTestSupport
import TesseraUtilities
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
        == "SVG images are not shown here: Tessera shows JPEG, PNG, WebP, GIF, HEIF and AVIF, "
        + "and from a folder also TIFF, JPEG XL, camera RAW and videos")
    #expect(pipeline.statistics.decodes == 0)
  }

  @Test func aPDFServedAsJPEGIsRefusedByName() async {
    let (result, _) = await fromNetwork(TestImages.pdf())
    #expect(result.error == .unsupportedFormat("PDF"))
    #expect(result.error?.description.hasPrefix("PDF images are not shown here") == true)
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

  /// Formats no loader here reads, in a folder under a photo's name: each is named, not
  /// called damaged (hand-made headers, and ImageMagick's own TGA and PCX, which have no
  /// magic number).
  @Test(arguments: [
    ("QOI", Data("qoif".utf8) + Data([0, 0, 0, 4, 0, 0, 0, 4, 4, 0]) + Data(count: 40)),
    ("GIMP XCF", Data("gimp xcf v011\0".utf8) + Data(count: 64)),
    ("BPG", Data([0x42, 0x50, 0x47, 0xFB]) + Data(count: 60)),
    ("TGA", Self.magick("tga")), ("PCX", Self.magick("pcx")),
  ])
  func formatsNotShownAreNamed(name: String, bytes: Data) async {
    let local = await fromLocalFolder(bytes, named: "photo.jpg")
    #expect(local.error == .unsupportedFormat(name), "\(bytes.count) bytes")
  }

  @Test func bytesOfNoKnownFormatAreNotCalledDamaged() async {
    var generator = SplitMix64(seed: 7)
    let noise = Data((0..<300).map { _ in UInt8.random(in: 0...255, using: &generator) })
    let local = await fromLocalFolder(noise, named: "photo.jpg")
    #expect(local.error == .decodingFailed("this file is in no image format Tessera knows"))
  }

  /// A 32×24 picture written by ImageMagick as `format`; empty when it cannot (then the
  /// expectation on it fails, naming the byte count).
  static func magick(_ format: String) -> Data {
    let folder = TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("picture.\(format)").path
    let convert = Process()
    convert.executableURL = URL(fileURLWithPath: "/usr/bin/convert")
    convert.arguments = ["-size", "32x24", "plasma:fractal", "-seed", "1", path]
    guard (try? convert.run()) != nil else { return Data() }
    convert.waitUntilExit()
    return (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
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
