import Foundation

/// What a person decided about a photo in a culling tool, as XMP keeps it: the rating and
/// reject flag, the colour label, keywords and hierarchical tags, and the title, read by
/// namespace (`XMPPacket`) from a sidecar or the packet embedded in a file. darktable,
/// digiKam, Lightroom, Capture One and Immich write these same properties and read each
/// other's:
///
/// - `xmp:Rating`: −1 rejected, 0 unrated, 1…5 stars (a real number; writers round it).
/// - `xmp:Label`: Lightroom's and darktable's colour names (Red, Yellow, Green, Blue,
///   Purple); another label (Lightroom lets a person name their own) is kept as written.
/// - `dc:subject`: keywords, a bag of flat names.
/// - `lr:hierarchicalSubject` ("Places|France|Paris") and `digiKam:TagsList`
///   ("Places/France/Paris"): tags as paths, merged and without repeats.
/// - `dc:title`: the default-language title.
///
/// Values come from outside: a rating outside −1…5 or not a number is no rating, and every
/// text is cut to ``maxTextScalars``.
///
/// - Complexity: O(properties read), each an O(properties) lookup in the toolkit's tree;
///   arrays at most `XMPPacket.maxArrayItems` items.
package struct XMPCulling: Equatable, Sendable {
  /// The colour labels the tools share, by the names they write.
  package enum Label: Equatable, Sendable {
    case red, yellow, green, blue, purple
    /// A label the person named themselves, as written.
    case other(String)

    /// The label `text` names (the five colours in any letter case); nil for empty text.
    init?(_ text: String) {
      let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
      switch trimmed.lowercased() {
      case "": return nil
      case "red": self = .red
      case "yellow": self = .yellow
      case "green": self = .green
      case "blue": self = .blue
      case "purple": self = .purple
      default: self = .other(trimmed)
      }
    }
  }

  /// Longest text kept, in Unicode scalars (a tag, a title, a label).
  package static let maxTextScalars = 256

  /// −1 rejected, 0 unrated, 1…5 stars; nil when the packet says nothing usable.
  package var rating: Int?
  package var label: Label?
  /// `dc:subject`, in the packet's order.
  package var keywords: [String] = []
  /// Tag paths from `lr:hierarchicalSubject` and `digiKam:TagsList`, without repeats.
  package var tagPaths: [[String]] = []
  package var title: String?

  package init(
    rating: Int? = nil, label: Label? = nil, keywords: [String] = [],
    tagPaths: [[String]] = [], title: String? = nil
  ) {
    self.rating = rating
    self.label = label
    self.keywords = keywords
    self.tagPaths = tagPaths
    self.title = title
  }

  /// What `packet` says.
  package init(_ packet: XMPPacket) {
    rating = packet.property(.xmp, "Rating").flatMap(Self.rating)
    label = packet.property(.xmp, "Label").map(Self.cut).flatMap(Label.init)
    keywords = packet.items(.dublinCore, "subject").map(Self.cut).filter { !$0.isEmpty }
    var paths: [[String]] = []
    let hierarchical =
      packet.items(.lightroom, "hierarchicalSubject").map { Self.path($0, separator: "|") }
      + packet.items(.digiKam, "TagsList").map { Self.path($0, separator: "/") }
    for path in hierarchical where !path.isEmpty && !paths.contains(path) {
      paths.append(path)
    }
    tagPaths = paths
    title = packet.localizedText(.dublinCore, "title").map(Self.cut).flatMap {
      $0.isEmpty ? nil : $0
    }
  }

  /// A rating from its text: a number within −1…5, rounded to the nearest whole star.
  static func rating(_ text: String) -> Int? {
    guard let value = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)),
      value.isFinite, (-1...5).contains(value.rounded())
    else { return nil }
    return Int(value.rounded())
  }

  private static func path(_ text: String, separator: Character) -> [String] {
    text.split(separator: separator).map { cut(String($0)) }.filter { !$0.isEmpty }
  }

  private static func cut(_ text: String) -> String {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard trimmed.unicodeScalars.count > maxTextScalars else { return trimmed }
    return String(String.UnicodeScalarView(trimmed.unicodeScalars.prefix(maxTextScalars)))
  }
}
