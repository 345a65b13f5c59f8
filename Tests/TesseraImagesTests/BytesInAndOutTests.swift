import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraImages

/// Bytes the caller holds, decoded through the pipeline; images written back out.
@Suite(.timeLimit(.minutes(1))) struct BytesInAndOutTests {
  private let box = PixelSize(width: 32, height: 32)

  @Test func heldBytesDecodeThroughThePipelineCachedUnderTheirID() async throws {
    let loader = HeldDataLoader { _ in .success(Fixtures.ok()) }
    let pipeline = makePipeline(loader)
    let request = ImageRequest(id: "upload-1", data: Fixtures.png, targetSize: box)
    let response = try await pipeline.imageTask(with: request).response
    #expect(response.origin == .providedData)
    #expect(response.image.size == PixelSize(width: 32, height: 24))
    #expect(loader.callCount == 0)
    // The same id is the same image, whatever bytes a later request carries.
    let again = ImageRequest(id: "upload-1", data: Fixtures.otherPNG, targetSize: box)
    #expect(try await pipeline.imageTask(with: again).response.origin == .memoryCache)
    #expect(pipeline.cachedImage(for: again) == response.image)
  }

  @Test func requestsOfOneIDShareOneDecode() async throws {
    let pipeline = makePipeline(HeldDataLoader())
    async let first = pipeline.image(
      for: ImageRequest(id: "same", data: Fixtures.jpeg, targetSize: box))
    async let second = pipeline.image(
      for: ImageRequest(id: "same", data: Fixtures.jpeg, targetSize: box))
    #expect(try await first == second)
    #expect(pipeline.statistics.decodes == 1)
  }

  /// A caller that looked at the memory cache just before a decode of the same image finished
  /// finds the decode gone when it asks the core: the image is served from the cache, not
  /// decoded again (under load `requestsOfOneIDShareOneDecode` once counted two decodes).
  @Test func aRequestThatMissedTheCacheJustBeforeTheDecodeFinishedIsServedFromIt() async throws {
    let pipeline = makePipeline(HeldDataLoader())
    let request = ImageRequest(id: "same", data: Fixtures.jpeg, targetSize: box)
    let decoded = try await pipeline.image(for: request)
    #expect(pipeline.statistics.decodes == 1)
    // The core asked directly, as after the caller's look at the cache had missed.
    let outcome = await withCheckedContinuation { continuation in
      _ = pipeline.core.startImageTask(request, priority: .normal) { outcome in
        continuation.resume(returning: outcome)
      }
    }
    guard case .image(let image, let origin) = outcome else {
      Issue.record("no image: \(outcome)")
      return
    }
    #expect(image == decoded && origin == .memoryCache)
    #expect(pipeline.statistics.decodes == 1)
  }

  @Test func heldBytesKeepTheTrustRulesOfTheirSource() async throws {
    let pipeline = makePipeline(HeldDataLoader())
    let svg = ImageRequest(id: "svg", data: TestImages.svg(), targetSize: box)
    await #expect(throws: ImagePipelineError.self) { try await pipeline.image(for: svg) }
    // TIFF is no network format; said to be as trusted as the user's files, it decodes.
    let tiff = ImageRequest(id: "tiff", data: Fixtures.tiff, targetSize: box)
    let result = await Result { () async throws(ImagePipelineError) in
      try await pipeline.image(for: tiff)
    }
    guard case .failure(.unsupportedFormat) = result else {
      Issue.record("TIFF bytes from the network decoded: \(result)")
      return
    }
    let local = ImageRequest(id: "tiff", data: Fixtures.tiff, targetSize: box, source: .localFolder)
    #expect(try await pipeline.image(for: local).width == 32)
  }

  @Test func theDecoderDecodesOneOffWithItsLimits() throws {
    let decoder = ImageDecoder()
    let image = try decoder.decode(Fixtures.jpeg, targetSize: box, contentMode: .aspectFill)
    #expect(image.size == box)
    #expect(try decoder.header(of: Fixtures.jpeg) == PixelSize(width: 80, height: 40))
    #expect(throws: ImagePipelineError.self) {
      try ImageDecoder(maxPixels: 100).decode(Fixtures.jpeg, targetSize: box)
    }
  }

  @Test(arguments: [
    ImageEncoder.Format.jpeg(quality: 85), .png, .webp(quality: 80), .avif(quality: 60),
  ])
  func anImageWrittenOutReadsBackAsItself(format: ImageEncoder.Format) throws {
    let image = try ImageDecoder().decode(Fixtures.png, targetSize: nil)
    let written = try ImageEncoder.encode(image, as: format)
    let read = try ImageDecoder().decode(written, targetSize: nil)
    #expect(read.size == image.size)
    // Lossy formats stay close: the mean difference per channel is small.
    let difference = zip(read.pixels, image.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
    #expect(Double(difference) / Double(image.pixels.count) < 6, "\(format)")
    // Nothing but pixels: no EXIF or XMP block in what was written.
    #expect(written.range(of: Data("Exif".utf8)) == nil)
    #expect(written.range(of: Data("http://ns.adobe.com/xap".utf8)) == nil)
  }

  @Test func transparencyBecomesWhiteInAJPEGAndStaysInAPNG() throws {
    let clear = try Image(
      width: 2, height: 1, pixels: [255, 0, 0, 0, 0, 0, 255, 255],
      originalSize: PixelSize(width: 2, height: 1))
    let jpeg = try ImageDecoder().decode(
      try ImageEncoder.encode(clear, as: .jpeg(quality: 100)), targetSize: nil)
    #expect(jpeg.pixels[0] > 200 && jpeg.pixels[1] > 200 && jpeg.pixels[2] > 200)
    let png = try ImageDecoder().decode(try ImageEncoder.encode(clear, as: .png), targetSize: nil)
    #expect(png.pixels[3] == 0)
    #expect(png.pixels[7] == 255)
  }
}

/// Processors: each step's result, their order, and their place in the cache key.
@Suite(.timeLimit(.minutes(1))) struct ProcessorTests {
  private func opaque(_ width: Int, _ height: Int) throws -> Image {
    try Image(
      width: width, height: height,
      pixels: TestImages.gradientPixels(width: width, height: height),
      originalSize: PixelSize(width: width, height: height))
  }

  @Test func cropKeepsThePixelsItCoversAndCutsToTheImage() throws {
    let image = try opaque(10, 8)
    let cropped = try ImageProcessor.crop(Rect(x: 2, y: 3, width: 4, height: 2)).process(image)
    #expect(cropped.size == PixelSize(width: 4, height: 2))
    #expect(
      Array(cropped.pixels[0..<4]) == Array(image.pixels[(3 * 10 + 2) * 4..<(3 * 10 + 2) * 4 + 4]))
    #expect(
      try ImageProcessor.crop(Rect(x: 8, y: 6, width: 10, height: 10)).process(image).size
        == PixelSize(width: 2, height: 2))
    #expect(throws: ImagePipelineError.self) {
      try ImageProcessor.crop(Rect(x: 20, y: 0, width: 5, height: 5)).process(image)
    }
  }

  @Test func resizeFillsOrFitsTheBox() throws {
    let image = try opaque(40, 20)
    #expect(
      try ImageProcessor.resize(PixelSize(width: 10, height: 10)).process(image).size
        == PixelSize(width: 10, height: 10))
    #expect(
      try ImageProcessor.resize(PixelSize(width: 10, height: 10), .aspectFit).process(image)
        .size == PixelSize(width: 10, height: 5))
  }

  @Test func roundedCornersAndCircleClearTheCornersAndKeepTheMiddle() throws {
    let image = try opaque(20, 10)
    let rounded = try ImageProcessor.roundedCorners(radius: 4).process(image)
    #expect(rounded.pixels[3] == 0)  // the top-left corner pixel
    #expect(rounded.pixels[(5 * 20 + 10) * 4 + 3] == 255)  // the middle
    #expect(rounded.pixels[(0 * 20 + 10) * 4 + 3] == 255)  // the top edge's middle
    let circle = try ImageProcessor.circle.process(image)
    #expect(circle.size == PixelSize(width: 10, height: 10))
    #expect(circle.pixels[3] == 0)
    #expect(circle.pixels[(5 * 10 + 5) * 4 + 3] == 255)
    // The edge is anti-aliased: some alpha between none and all.
    #expect(
      circle.pixels.enumerated().contains { $0.offset % 4 == 3 && (1...254).contains($0.element) })
  }

  @Test func blurSoftensAndKeepsTheSize() throws {
    var pixels = [UInt8](repeating: 0, count: 16 * 16 * 4)
    for index in stride(from: 3, to: pixels.count, by: 4) { pixels[index] = 255 }
    let centre = (8 * 16 + 8) * 4
    pixels[centre] = 255
    let dot = try Image(
      width: 16, height: 16, pixels: pixels, originalSize: PixelSize(width: 16, height: 16))
    let blurred = try ImageProcessor.gaussianBlur(sigma: 2).process(dot)
    #expect(blurred.size == dot.size)
    #expect(blurred.pixels[centre] < 255)
    #expect(blurred.pixels[centre + 4] > 0)  // the neighbour got some of the dot
  }

  /// A sigma from outside (NaN, infinite, negative, huge) is clamped before libvips sees it:
  /// the blur runs, keeps the size, and each clamped value names one key.
  @Test func aBlurOfAnUnusableSigmaIsClamped() throws {
    let image = try ImageDecoder().decode(Fixtures.png, targetSize: nil)
    for sigma in [Double.nan, .infinity, -.infinity, -3, 0, 1e9] {
      let blur = ImageProcessor.gaussianBlur(sigma: sigma)
      #expect(try blur.process(image).size == image.size, "\(sigma)")
      #expect(!blur.identifier.contains("nan") && !blur.identifier.contains("inf"))
    }
    #expect(
      ImageProcessor.gaussianBlur(sigma: .nan).identifier
        == ImageProcessor.gaussianBlur(sigma: 0).identifier)
    #expect(
      ImageProcessor.gaussianBlur(sigma: 1e9).identifier
        == ImageProcessor.gaussianBlur(sigma: 100).identifier)
  }

  /// Metadata stripping never guesses: a WebP cut anywhere, or one whose chunk sizes lie,
  /// comes back as it was, and a whole one loses exactly its EXIF and XMP chunks.
  @Test func webPStrippingLeavesMalformedFilesAsTheyAre() throws {
    func chunk(_ name: String, _ payload: [UInt8]) -> [UInt8] {
      let size = payload.count
      return Array(name.utf8) + (0..<4).map { UInt8(truncatingIfNeeded: size >> ($0 * 8)) }
        + payload + (size & 1 == 1 ? [0] : [])
    }
    var vp8x = [UInt8](repeating: 0, count: 10)
    vp8x[0] = 0x0C  // EXIF and XMP flags
    let body =
      chunk("VP8X", vp8x) + chunk("VP8L", [0x2F, 1, 2, 3, 4]) + chunk("EXIF", [1, 2, 3])
      + chunk("XMP ", Array("<x/>".utf8))
    func riff(_ body: [UInt8]) -> Data {
      let size = body.count + 4
      return Data(
        Array("RIFF".utf8) + (0..<4).map { UInt8(truncatingIfNeeded: size >> ($0 * 8)) }
          + Array("WEBP".utf8) + body)
    }
    let whole = riff(body)
    let stripped = WebPMetadataStrip.stripped(whole)
    #expect(stripped.range(of: Data("EXIF".utf8)) == nil)
    #expect(stripped.range(of: Data("XMP ".utf8)) == nil)
    #expect(stripped.range(of: Data("VP8L".utf8)) != nil)
    #expect([UInt8](stripped)[20] & 0x0C == 0)  // VP8X's flags say so too
    let strippedSize = [UInt8](stripped)[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
    #expect(strippedSize == stripped.count - 8)
    // Every cut that ends inside a chunk is left alone.
    var chunkEnds: Set<Int> = [12]
    var offset = 12
    for piece in [
      chunk("VP8X", vp8x), chunk("VP8L", [0x2F, 1, 2, 3, 4]), chunk("EXIF", [1, 2, 3]),
    ] {
      offset += piece.count
      chunkEnds.insert(offset)
    }
    for length in 0..<whole.count where !chunkEnds.contains(length) {
      let cut = whole.prefix(length)
      let result = WebPMetadataStrip.stripped(Data(cut))
      #expect(result == Data(cut) || length >= 20 && result.count <= length, "cut at \(length)")
    }
    // A chunk claiming more than the file holds, and a size near 2^32.
    var lying = [UInt8](whole)
    lying[16..<20] = [0xFF, 0xFF, 0xFF, 0xFF]
    #expect(WebPMetadataStrip.stripped(Data(lying)) == Data(lying))
    #expect(
      WebPMetadataStrip.stripped(Data("RIFF\0\0\0\0WEBPVP8".utf8))
        == Data("RIFF\0\0\0\0WEBPVP8".utf8))
  }

  @Test func processorsRunInOrderAndTakePartInTheKey() async throws {
    let loader = HeldDataLoader { _ in .success(Fixtures.ok()) }
    let pipeline = makePipeline(loader)
    var request = Fixtures.request("a.png", size: 64)
    let plain = try await pipeline.image(for: request)
    request.processors = [
      .crop(Rect(x: 0, y: 0, width: 20, height: 20)),
      .custom(id: "mirror") { image throws(ImagePipelineError) in
        var pixels = image.pixels
        for row in 0..<image.height {
          for column in 0..<image.width / 2 {
            for channel in 0..<4 {
              pixels.swapAt(
                (row * image.width + column) * 4 + channel,
                (row * image.width + image.width - 1 - column) * 4 + channel)
            }
          }
        }
        return try Image(
          width: image.width, height: image.height, pixels: pixels,
          originalSize: image.originalSize)
      },
    ]
    #expect(pipeline.cachedImage(for: request) == nil)  // another key
    let processed = try await pipeline.image(for: request)
    #expect(processed.size == PixelSize(width: 20, height: 20))
    // Cropped first, then mirrored: the first pixel is the crop's last in its row.
    #expect(Array(processed.pixels[0..<4]) == Array(plain.pixels[19 * 4..<20 * 4]))
    #expect(loader.callCount == 2)  // another image: without a disk cache, fetched again
    #expect(pipeline.cachedImage(for: request) == processed)
    let failing = ImageRequest(
      url: Fixtures.url("a.png"), targetSize: PixelSize(width: 64, height: 64))
    var outside = failing
    outside.processors = [.crop(Rect(x: 500, y: 500, width: 1, height: 1))]
    let result = await Result { () async throws(ImagePipelineError) in
      try await pipeline.image(for: outside)
    }
    guard case .failure(.processingFailed) = result else {
      Issue.record("a crop outside the image did not fail: \(result)")
      return
    }
  }
}
