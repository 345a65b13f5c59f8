import Testing

@testable import TesseraUtilities

@Suite struct ClampingTests {
  @Test(arguments: [
    (Double.nan, 0), (.infinity, 100), (-.infinity, -5), (1e300, 100), (-1e300, -5),
    (42.4, 42), (42.5, 43), (-4.6, -5), (99.49, 99), (100.2, 100),
  ])
  func doublesBecomeIntegersInsideTheRange(value: Double, expected: Int) {
    let lower = value.isNaN ? 0 : -5
    #expect(Int(clamping: value, to: lower...100) == expected)
  }

  @Test func extremeIntegerRangesDoNotTrap() {
    #expect(Int(clamping: 1e300, to: Int.min...Int.max) == Int.max)
    #expect(Int(clamping: -1e300, to: Int.min...Int.max) == Int.min)
    #expect(Int(clamping: Double(Int.max), to: 0...Int.max) == Int.max)
  }

  @Test func integersAndDoublesClamp() {
    #expect(Int.max.clamped(to: 1...65_535) == 65_535)
    #expect(Int.min.clamped(to: 1...65_535) == 1)
    #expect(7.clamped(to: 1...65_535) == 7)
    #expect(Double.nan.clamped(to: 0.01...100) == 0.01)
    #expect(Double.nan.clamped(to: 0.01...100, nan: 1) == 1)
    #expect(Double.infinity.clamped(to: 0.01...100) == 100)
    #expect(0.5.clamped(to: 0.01...100) == 0.5)
  }
}
