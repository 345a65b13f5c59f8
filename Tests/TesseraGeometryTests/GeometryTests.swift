import TesseraGeometry
import Testing

@Suite struct PixelSizeTests {
  @Test func aspectRatioIsWidthOverHeight() {
    #expect(PixelSize(width: 640, height: 480).aspectRatio == 640.0 / 480.0)
    #expect(PixelSize(width: 100, height: 400).aspectRatio == 0.25)
  }

  @Test(arguments: [(0, 10), (10, 0), (-3, 4), (4, -3), (0, 0)])
  func aDegenerateSizeHasNoAspectRatio(width: Int, height: Int) {
    #expect(PixelSize(width: width, height: height).aspectRatio == nil)
  }

  @Test func describesItselfAsWidthByHeight() {
    #expect(PixelSize(width: 32, height: 24).description == "32x24")
  }
}

@Suite struct RGBTests {
  @Test func keepsItsChannelsInOrder() {
    let colour = RGB(1, 2, 3)
    #expect((colour.red, colour.green, colour.blue) == (1, 2, 3))
    #expect(colour.description == "rgb(1,2,3)")
    #expect(colour != RGB(3, 2, 1))
  }
}
