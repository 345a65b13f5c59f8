/// The header of one binary PPM frame (`P6`, width, height, 255, each after whitespace, then
/// one whitespace byte before the pixels), as `ffmpeg -f image2pipe -c:v ppm` writes a video's
/// frames one after another. A child's output is outside input: sizes are checked against the
/// largest frame asked for before anything is allocated.
///
/// - Complexity: ``parse(_:largest:)`` is O(header), at most ``longest`` bytes.
package struct PPMFrameHeader: Equatable, Sendable {
  package let width: Int
  package let height: Int
  /// The header's own length in bytes: the pixels start there.
  package let length: Int

  /// `width * height * 3`: the RGB bytes that follow the header.
  package var pixelBytes: Int { width * height * 3 }

  /// No header Tessera accepts is longer (`P6\n65535 65535\n255\n` is 20 bytes).
  package static let longest = 64

  package enum Parse: Equatable, Sendable {
    /// The bytes end before the header does.
    case needMore
    case header(PPMFrameHeader)
    case invalid(String)
  }

  /// Parses the header at the start of `bytes`, for a frame no larger than `largest`.
  package static func parse(_ bytes: ArraySlice<UInt8>, largest: PixelSize) -> Parse {
    var index = bytes.startIndex
    func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
    for (offset, expected) in [UInt8(ascii: "P"), UInt8(ascii: "6")].enumerated() {
      guard index + offset < bytes.endIndex else { return .needMore }
      guard bytes[index + offset] == expected else { return .invalid("not a PPM frame") }
    }
    index += 2
    var numbers: [Int] = []
    while numbers.count < 3 {
      var sawSpace = false
      while index < bytes.endIndex, isSpace(bytes[index]) {
        sawSpace = true
        index += 1
      }
      guard index - bytes.startIndex < longest else { return .invalid("a PPM header too long") }
      guard index < bytes.endIndex else { return .needMore }
      guard sawSpace else { return .invalid("a PPM header without spaces") }
      var value = 0
      var digits = 0
      while index < bytes.endIndex, (0x30...0x39).contains(bytes[index]) {
        value = value * 10 + Int(bytes[index] - 0x30)
        digits += 1
        index += 1
        guard digits <= 5 else { return .invalid("a PPM size of more than five digits") }
      }
      guard index < bytes.endIndex else { return .needMore }
      guard digits > 0, isSpace(bytes[index]) else { return .invalid("a PPM header's number") }
      numbers.append(value)
    }
    // The one whitespace byte after the maximum value ends the header.
    let header = PPMFrameHeader(
      width: numbers[0], height: numbers[1], length: index + 1 - bytes.startIndex)
    guard header.length <= longest else { return .invalid("a PPM header too long") }
    guard numbers[2] == 255 else { return .invalid("PPM samples of \(numbers[2]), not 255") }
    guard (1...max(1, largest.width)).contains(header.width),
      (1...max(1, largest.height)).contains(header.height)
    else {
      return .invalid(
        "a \(header.width)x\(header.height) frame, larger than the \(largest.width)x\(largest.height) asked for"
      )
    }
    return .header(header)
  }
}
