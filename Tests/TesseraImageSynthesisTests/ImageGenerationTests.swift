import TesseraTestSupport
import Testing

@testable import TesseraImageSynthesis

@Suite(.timeLimit(.minutes(1))) struct ImageGenerationTests {
  static let seed: UInt64 = 7

  func generate(_ id: Int, _ variant: ImageVariant, _ format: ImageFormat) throws -> [UInt8] {
    try ImageSynthesizer.encode(
      ImageKey(kind: .photo, id: id, variant: variant, format: format), seed: Self.seed)
  }

  @Test(arguments: ImageFormat.allCases)
  func sameIdSameBytes(format: ImageFormat) throws {
    let first = try generate(17, .m, format)
    let second = try generate(17, .m, format)
    #expect(first == second)
    #expect(try generate(18, .m, format) != first)
  }

  @Test(arguments: ImageFormat.allCases)
  func bytesAreRealImagesOfTheAdvertisedSize(format: ImageFormat) throws {
    let bytes = try generate(23, .n, format)
    let header = try #require(TestImages.header(bytes))
    let expected = ImageVariant.n.size(id: 23, seed: Self.seed)
    #expect(header.width == expected.width && header.height == expected.height)
    let loaders: [ImageFormat: String] = [.jpeg: "jpegload", .png: "pngload", .webp: "webpload"]
    #expect(header.loader.hasPrefix(try #require(loaders[format])))
  }

  @Test func aspectRatiosSpanTallToWide() {
    let aspects = (1...400).map { id -> Double in
      let size = ImageVariant.o.size(id: id, seed: Self.seed)
      return Double(size.width) / Double(size.height)
    }
    #expect(aspects.allSatisfy { $0 >= 0.49 && $0 <= 2.01 })
    #expect(aspects.contains { $0 < 0.52 })
    #expect(aspects.contains { $0 > 1.95 })
  }

  @Test func originalsStayWithin12Megapixels() {
    let pixels = (1...400).map { id -> Int in
      let size = ImageVariant.o.size(id: id, seed: Self.seed)
      return size.width * size.height
    }
    #expect(pixels.allSatisfy { $0 <= 12_000_000 && $0 >= 1_900_000 })
    #expect(pixels.contains { $0 > 10_000_000 })
  }

  @Test func variantsFitTheirLongestEdge() {
    for variant in ImageVariant.allCases {
      guard let edge = variant.longestEdge else { continue }
      let size = variant.size(id: 5, seed: Self.seed)
      #expect(max(size.width, size.height) <= edge)
      if variant.isSquare { #expect(size.width == size.height) }
    }
  }

  /// JPEG at quality 85, decoded and downsampled the way a cell's pipeline does, still tells
  /// which image it is from the band alone.
  @Test(arguments: [ImageFormat.jpeg, .webp, .png])
  func markerSurvivesEncodeDecodeAndDownsample(format: ImageFormat) throws {
    for id in [1, 2, 3, 77, 255, 256, 511, 512, 513, 1_000, 9_999] {
      let bytes = try generate(id, .m, format)
      let bitmap = try #require(TestImages.decode(bytes, fitting: 48, 48))
      #expect(bitmap.markerID == id % IdMarker.modulus, "id \(id) as \(format)")
    }
  }

  /// Every one of the 512 band colours survives the smallest JPEG and a 4× downsample.
  @Test func everyMarkerColourSurvivesTheSmallestJPEG() throws {
    var misread: [Int] = []
    for id in 1...IdMarker.modulus {
      let bytes = try generate(id, .s, .jpeg)
      let bitmap = try #require(TestImages.decode(bytes, fitting: 19, 19))
      if bitmap.markerID != id % IdMarker.modulus { misread.append(id) }
    }
    #expect(misread.isEmpty, "misread ids: \(misread.prefix(10))")
  }

  /// Outside the band and the left stripe nothing reads as a marker (lossless PNG, every
  /// pixel); inside the stripe, every pixel reads as the image's own id.
  @Test func bodyPixelsNeverReadAsAMarker() throws {
    for id in [4, 99, 300] {
      let bytes = try generate(id, .t, .png)
      let bitmap = try #require(TestImages.decode(bytes, fitting: 1000, 1000))
      let band = Int((Double(bitmap.height) * IdMarker.bandFraction).rounded(.up))
      var markers = 0
      var stripeMisreads = 0
      for y in band..<bitmap.height {
        for x in 0..<bitmap.width {
          let read = IdMarker.id(for: bitmap.rgb(x, y))
          if x < band {
            if read != id % IdMarker.modulus { stripeMisreads += 1 }
          } else if read != nil {
            markers += 1
          }
        }
      }
      #expect(markers == 0, "id \(id)")
      #expect(stripeMisreads == 0, "id \(id)")
    }
  }

  @Test func bandCoversTheTopOfTheImage() throws {
    let bytes = try generate(42, .m, .png)
    let bitmap = try #require(TestImages.decode(bytes, fitting: 1000, 1000))
    let colour = IdMarker.color(for: 42)
    let lastBandRow = Int(Double(bitmap.height) * 0.12) - 1
    for x in [0, bitmap.width / 2, bitmap.width - 1] {
      #expect(bitmap.rgb(x, 0) == colour)
      #expect(bitmap.rgb(x, lastBandRow) == colour)
    }
  }

  /// The one test that generates a large original.
  @Test func largeOriginalCarriesTheMarker() throws {
    let size = ImageVariant.o.size(id: 8, seed: Self.seed)
    let bytes = try generate(8, .o, .jpeg)
    let header = try #require(TestImages.header(bytes))
    #expect(header.width == size.width && header.height == size.height)
    #expect(header.width * header.height > 2_000_000)
    let bitmap = try #require(TestImages.decode(bytes, fitting: 64, 64))
    #expect(bitmap.markerID == 8)
  }

  @Test func avatarsAreSquareAndMarkedWithTheUserId() throws {
    let key = ImageKey(kind: .avatar, id: 12, variant: .q, format: .png)
    let bytes = try ImageSynthesizer.encode(key, seed: Self.seed)
    let bitmap = try #require(TestImages.decode(bytes, fitting: 150, 150))
    #expect(bitmap.width == 150 && bitmap.height == 150)
    #expect(bitmap.markerID == 12)
  }

  @Test func digitsFontDrawsEveryDigitDistinctly() {
    let shapes = (0...9).map { digit in
      (0..<DigitFont.glyphHeight).flatMap { row in
        (0..<DigitFont.glyphWidth).map { DigitFont.ink(digit, column: $0, row: row) }
      }
    }
    #expect(Set(shapes.map { $0.description }).count == 10)
    #expect(!DigitFont.ink(10, column: 0, row: 0))
  }
}
