import TesseraGeometry
import Testing

@testable import TesseraUtilities

@Suite struct AreaResamplingTests {
  private func resample(
    _ pixels: [UInt8], _ width: Int, _ height: Int, to outWidth: Int, _ outHeight: Int
  ) -> [UInt8] {
    AreaResampling.resample(
      pixels, sourceWidth: width, sourceHeight: height, width: outWidth, height: outHeight,
      crop: .init(x: 0, y: 0, width: outWidth, height: outHeight))
  }

  @Test func eachOutputPixelIsTheMeanOfTheAreaItCovers() {
    // 2×2 → 1×1: the mean of the four, rounded.
    let pixels: [UInt8] = [0, 0, 0, 255, 100, 0, 0, 255, 0, 200, 0, 255, 1, 0, 0, 255]
    #expect(resample(pixels, 2, 2, to: 1, 1) == [25, 50, 0, 255])
    // 3 → 2 across: the middle pixel is split between both outputs.
    let row: [UInt8] = [0, 0, 0, 0, 90, 90, 90, 90, 180, 180, 180, 180]
    #expect(resample(row, 3, 1, to: 2, 1) == [30, 30, 30, 30, 150, 150, 150, 150])
  }

  @Test func aCropCostsItsOwnPixelsAndMatchesTheWhole() {
    let pixels = (0..<(16 * 8 * 4)).map { UInt8($0 % 251) }
    let whole = resample(pixels, 16, 8, to: 6, 3)
    let crop = AreaResampling.resample(
      pixels, sourceWidth: 16, sourceHeight: 8, width: 6, height: 3,
      crop: .init(x: 2, y: 1, width: 3, height: 2))
    var expected: [UInt8] = []
    for row in 1..<3 { expected += whole[(row * 6 + 2) * 4..<(row * 6 + 5) * 4] }
    #expect(crop == expected)
  }

  /// A source whose bytes do not add up to its sides, or a crop outside the output, gives
  /// nothing rather than reading past the end.
  @Test func badSourcesAndEmptyCropsGiveNothing() {
    #expect(resample([1, 2, 3], 2, 2, to: 1, 1).isEmpty)
    #expect(resample([], 0, 0, to: 1, 1).isEmpty)
    #expect(resample([UInt8](repeating: 0, count: 16), 2, 2, to: 1, 1) == [0, 0, 0, 0])
    #expect(
      AreaResampling.resample(
        [UInt8](repeating: 0, count: 16), sourceWidth: 2, sourceHeight: 2, width: 2, height: 2,
        crop: .init(x: 5, y: 5, width: 1, height: 1)
      ).isEmpty)
    #expect(
      AreaResampling.resample(
        [UInt8](repeating: 0, count: 16), sourceWidth: Int.max / 2, sourceHeight: 4, width: 2,
        height: 2, crop: .init(x: 0, y: 0, width: 2, height: 2)
      ).isEmpty)
  }
}
