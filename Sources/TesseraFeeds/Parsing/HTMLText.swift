import Foundation
import TesseraUtilities

/// Plain text out of the small HTML fragments feeds carry in descriptions.
///
/// Each function is one linear pass over the fragment.
enum HTMLText {
  /// Tags removed, entities decoded, runs of whitespace collapsed to one space.
  static func plainText(_ html: String) -> String {
    var text = ""
    var insideTag = false
    for character in html {
      if insideTag {
        if character == ">" {
          insideTag = false
          text.append(" ")
        }
      } else if character == "<" {
        insideTag = true
      } else {
        text.append(character)
      }
    }
    return collapsingWhitespace(decodingEntities(text))
  }

  /// The description without Flickr's "{author} posted a photo:" line and the image link.
  static func summary(_ html: String) -> String {
    let text = plainText(html)
    guard let range = text.range(of: "posted a photo:") else { return text }
    return String(text[range.upperBound...]).trimmingCharacters(in: .whitespaces)
  }

  /// `width` and `height` of the first `<img>` tag, when both are plain decimal numbers and
  /// the size is within `FeedLimits` (sides 1…65,535, aspect 1:100…100:1); nil otherwise, so
  /// a forged size is "unknown", never a number a layout would trap on.
  static func firstImageSize(_ html: String) -> PixelSize? {
    guard let start = html.range(of: "<img", options: .caseInsensitive),
      let end = html[start.upperBound...].firstIndex(of: ">")
    else { return nil }
    let tag = html[start.upperBound..<end]
    guard let width = attribute("width", in: tag), let height = attribute("height", in: tag)
    else { return nil }
    return PixelSize(validatingWidth: width, height: height)
  }

  /// Digits no valid side needs more of; longer runs are refused before `Int` sees them.
  private static let maxSideDigits = String(FeedLimits.maxImageSide).count

  private static func attribute(_ name: String, in tag: Substring) -> Int? {
    guard let range = tag.range(of: " \(name)=", options: .caseInsensitive) else { return nil }
    let value = tag[range.upperBound...].drop { $0 == "\"" || $0 == "'" }
    let digits = value.prefix { $0.isASCII && $0.isNumber }
    // The number must end the value: `1e9`, `12.5` or `40px` are no pixel counts.
    let next = value.dropFirst(digits.count).first
    guard !digits.isEmpty, digits.count <= maxSideDigits,
      next.map({ $0 == "\"" || $0 == "'" || $0 == "/" || $0.isWhitespace }) ?? true
    else { return nil }
    return Int(digits)
  }

  static func decodingEntities(_ text: String) -> String {
    guard text.contains("&") else { return text }
    var out = ""
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      guard character == "&", let semicolon = text[index...].prefix(12).firstIndex(of: ";")
      else {
        out.append(character)
        index = text.index(after: index)
        continue
      }
      let name = text[text.index(after: index)..<semicolon]
      if let decoded = entity(name) {
        out.append(decoded)
        index = text.index(after: semicolon)
      } else {
        out.append(character)
        index = text.index(after: index)
      }
    }
    return out
  }

  private static func entity(_ name: Substring) -> Character? {
    switch name {
    case "amp": return "&"
    case "lt": return "<"
    case "gt": return ">"
    case "quot": return "\""
    case "apos": return "'"
    case "nbsp": return " "
    default: break
    }
    guard name.first == "#" else { return nil }
    let digits = name.dropFirst()
    let value =
      digits.first == "x" || digits.first == "X"
      ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
    return value.flatMap(Unicode.Scalar.init).map(Character.init)
  }

  private static func collapsingWhitespace(_ text: String) -> String {
    text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }
}
