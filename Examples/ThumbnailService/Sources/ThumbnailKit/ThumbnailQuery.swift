import Foundation
import TesseraImages

/// `url=…&w=…&format=webp|jpeg`, checked: an http(s) URL with a host (the pipeline's
/// `.network` source refuses anything else too), a width of 16…2048 pixels, a known format.
struct ThumbnailQuery: Hashable {
  static let widths = 16...2048

  var url: URL
  var width: Int
  var format: ImageEncoder.Format

  enum Problem: Error, CustomStringConvertible {
    case missing(String)
    case invalid(String)

    var description: String {
      switch self {
      case .missing(let name): "the query needs \(name)"
      case .invalid(let what): what
      }
    }
  }

  init(_ parameters: [String: String]) throws(Problem) {
    guard let text = parameters["url"] else { throw .missing("url=") }
    guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased()),
      url.host?.isEmpty == false
    else { throw .invalid("url must be an http(s) address") }
    guard let widthText = parameters["w"] else { throw .missing("w=") }
    guard let width = Int(widthText), Self.widths.contains(width) else {
      throw .invalid("w must be a whole number of pixels within \(Self.widths)")
    }
    switch parameters["format"] ?? "webp" {
    case "webp": format = .webp(quality: 80)
    case "jpeg", "jpg": format = .jpeg(quality: 82)
    default: throw .invalid("format must be webp or jpeg")
    }
    self.url = url
    self.width = width
  }
}
