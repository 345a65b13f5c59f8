import Testing

@testable import TesseraImageSynthesis

@Suite(.timeLimit(.minutes(1))) struct IdMarkerTests {
  @Test func everyIdRoundTripsThroughItsColour() {
    for id in 0..<IdMarker.modulus {
      #expect(IdMarker.id(for: IdMarker.color(for: id)) == id)
    }
  }

  @Test func idsAreReadModuloTheModulus() {
    #expect(IdMarker.modulus == 512)
    #expect(IdMarker.color(for: 5) == IdMarker.color(for: 5 + 512))
    #expect(IdMarker.id(for: IdMarker.color(for: 10_000)) == 10_000 % 512)
    #expect(IdMarker.id(for: IdMarker.color(for: -1)) == 511)
  }

  @Test func levelsAreAtLeast32Apart() {
    for (low, high) in zip(IdMarker.levels, IdMarker.levels.dropFirst()) {
      #expect(Int(high) - Int(low) >= 32)
    }
  }

  @Test func coloursSurviveSmallErrors() {
    let colour = IdMarker.color(for: 300)
    let nudged = RGB(colour.red &+ 9, colour.green &- 9, colour.blue &+ 5)
    #expect(IdMarker.id(for: nudged) == 300)
  }

  @Test func neighbouringIdsLookUnrelated() {
    let a = IdMarker.color(for: 41)
    let b = IdMarker.color(for: 42)
    let red = abs(Int(a.red) - Int(b.red))
    let green = abs(Int(a.green) - Int(b.green))
    let blue = abs(Int(a.blue) - Int(b.blue))
    let distance = red + green + blue
    #expect(distance >= 64)
  }

  @Test func bodyColoursNeverReadAsAnId() {
    for midpoint in IdMarker.midpoints {
      for other in stride(from: 0, through: 255, by: 5) {
        let value = UInt8(other)
        #expect(IdMarker.id(for: RGB(midpoint, value, value)) == nil)
        #expect(IdMarker.id(for: RGB(value, midpoint, value)) == nil)
        #expect(IdMarker.id(for: RGB(value, value, midpoint)) == nil)
      }
    }
    #expect(IdMarker.id(for: ImagePainter.plate) == nil)
    #expect(IdMarker.id(for: ImagePainter.digitInk) == nil)
  }
}
