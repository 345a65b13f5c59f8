import Foundation

/// The values of a thumbnail's text chunks, read as the numbers and lines they should be.
enum ThumbnailText {
  /// `Thumb::Image::Width` × `Thumb::Image::Height` when both are plain numbers within
  /// `ImageLimits.maxImageSide`.
  static func statedOriginalSize(_ chunks: PNGTextChunks) -> PixelSize? {
    guard let width = chunks.text["Thumb::Image::Width"].flatMap(number),
      let height = chunks.text["Thumb::Image::Height"].flatMap(number),
      (1...ImageLimits.maxImageSide).contains(width),
      (1...ImageLimits.maxImageSide).contains(height)
    else { return nil }
    return PixelSize(width: width, height: height)
  }

  /// `text` without control characters, at most 200 of them: it is shown in a tile.
  static func oneLine(_ text: String) -> String {
    let kept = text.unicodeScalars.filter { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }
    return String(String.UnicodeScalarView(kept.prefix(200)))
  }

  /// A number in plain ASCII digits (at most `ThumbnailLimits.maxNumberDigits`) that fits an
  /// `Int`; nil for anything else (signs, spaces, fractions, exponents).
  static func number(_ text: String) -> Int? {
    let utf8 = text.utf8
    guard (1...ThumbnailLimits.maxNumberDigits).contains(utf8.count),
      utf8.allSatisfy({ (0x30...0x39).contains($0) })
    else { return nil }
    return Int(text)
  }
}
