import Testing

@testable import TesseraPhotoFormats

@Suite struct JPEGHeaderSegmentsTests {
  /// A segment as a file holds it: FF, the marker, the 2-byte length, the payload.
  private func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
    let length = payload.count + 2
    return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
  }

  private let soi: [UInt8] = [0xFF, 0xD8]

  @Test func yieldsEachSegmentUpToTheScanAndSkipsFillBytesAndRestartMarkers() {
    let bytes =
      soi + segment(0xE0, Array("JFIF\0".utf8)) + [0xFF, 0xFF] + segment(0xE1, [1, 2, 3])
      + [0xFF, 0xD3] + segment(0xC0, [8, 0, 2, 0, 3, 1]) + segment(0xDA, [0, 0])
      + segment(0xE2, [9])
    let found = Array(JPEGHeaderSegments(bytes))
    #expect(found.map(\.marker) == [0xE0, 0xE1, 0xC0])
    #expect(
      found.map { Array(bytes[$0.payload]) } == [
        Array("JFIF\0".utf8), [1, 2, 3], [8, 0, 2, 0, 3, 1],
      ])
    #expect(found.map(\.isFrameHeader) == [false, false, true])
  }

  @Test func stopsAtWhatIsOutOfPlace() {
    let app0 = segment(0xE0, [1])
    // No SOI; a stray byte where a marker belongs; a length below 2; a segment past the end.
    #expect(Array(JPEGHeaderSegments(app0)).isEmpty)
    #expect(Array(JPEGHeaderSegments(soi + app0 + [0x00] + app0)).count == 1)
    #expect(Array(JPEGHeaderSegments(soi + app0 + [0xFF, 0xE1, 0x00, 0x01] + app0)).count == 1)
    #expect(Array(JPEGHeaderSegments(soi + app0 + [0xFF, 0xE1, 0x01, 0x00, 7])).count == 1)
    #expect(Array(JPEGHeaderSegments([0xFF, 0xD8, 0xFF])).isEmpty)
  }

  @Test func yieldsAtMostTheBoundedNumberOfSegments() {
    let many = soi + Array(repeating: segment(0xE5, [0]), count: 1_000).joined()
    #expect(Array(JPEGHeaderSegments(many)).count == JPEGHeaderSegments.maxSegments)
  }

  @Test func frameHeaderMarkersExcludeTheTablesThatShareTheirRange() {
    let frames = (UInt8(0xC0)...0xCF).filter {
      JPEGHeaderSegments.Segment(marker: $0, payload: 0..<0).isFrameHeader
    }
    #expect(
      frames == [0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF])
  }

  @Test func eachMarkerCodeIsReadAsOneStep() {
    func step(_ bytes: [UInt8]) -> JPEGHeaderSegments.Step { .init(bytes[...]) }
    #expect(step([0xFF, 0xFF, 0xE1, 0x00]) == .skip(1))
    #expect(step([0xFF, 0x01, 0xFF, 0xE1]) == .skip(2))
    #expect(step([0xFF, 0xD3, 0xFF, 0xE1]) == .skip(2))
    #expect(step([0xFF, 0xDA, 0x00, 0x0C]) == .end)
    #expect(step([0xFF, 0xD9, 0x00, 0x00]) == .end)
    #expect(step([0xFF, 0xE1, 0x12, 0x34]) == .segment(marker: 0xE1, length: 0x1234))
    #expect(step([0xFF, 0xC0, 0x00, 0x02]) == .segment(marker: 0xC0, length: 2))
    #expect(step([0xFF, 0xE1, 0x00, 0x01]) == .malformed)
    #expect(step([0x00, 0xE1, 0x00, 0x10]) == .malformed)
    #expect(step([0xFF, 0xE1, 0x00]) == .malformed)
  }
}
