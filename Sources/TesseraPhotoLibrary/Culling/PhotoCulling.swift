import Foundation
import TesseraPhotoFormats

/// What a person decided about a photo in a culling tool (darktable, digiKam, Lightroom,
/// Capture One, Immich), as its XMP sidecar says: the rating or reject, the colour label and
/// the tags (keywords, and tag paths with their levels joined by "/"), and the title.
///
/// A sidecar wins over the file: a camera's in-camera rating (EXIF 0x4746,
/// `ExifFacts.rating`) counts only when the sidecar says nothing (``rating(over:)``).
public struct PhotoCulling: Equatable, Sendable {
  /// The colour labels Lightroom and darktable share, in their order; a label the person
  /// named themselves is `.other`.
  public enum Label: UInt8, Sendable, CaseIterable {
    case red = 1, yellow, green, blue, purple, other

    /// The label's name as the tools write it ("Red"), or "other".
    public var name: String {
      switch self {
      case .red: "Red"
      case .yellow: "Yellow"
      case .green: "Green"
      case .blue: "Blue"
      case .purple: "Purple"
      case .other: "other"
      }
    }
  }

  /// Rejected: `xmp:Rating` −1.
  public static let rejected = -1

  /// −1 rejected, 0 unrated, 1…5 stars; nil when the sidecar says nothing usable.
  public var rating: Int?
  public var label: Label?
  /// Keywords (`dc:subject`) then tag paths (`lr:hierarchicalSubject`, `digiKam:TagsList`)
  /// as "People/Ann", without repeats, at most ``maxTags``; a tag with a control character
  /// (a line break a facts file could not keep on its line) is left out.
  public private(set) var tags: [String]

  /// `dc:title`'s default-language text, one line (a title with a control character is
  /// not kept), at most `XMPCulling.maxTextScalars` scalars.
  public private(set) var title: String?

  /// Tags kept a photo: a sidecar with more names a whole vocabulary, not a photo's.
  public static let maxTags = 64

  public init(rating: Int? = nil, label: Label? = nil, tags: [String] = [], title: String? = nil) {
    self.rating = rating.flatMap { (-1...5).contains($0) ? $0 : nil }
    self.label = label
    self.tags = Self.cleaned(tags)
    self.title = title.flatMap { Self.cleaned([$0]).first }
      .flatMap { $0.unicodeScalars.count <= XMPCulling.maxTextScalars ? $0 : nil }
  }

  /// `tags` without empty ones, ones with a control character, and repeats, in their order.
  /// - Complexity: O(n²) comparisons for n ≤ ``maxTags`` kept.
  static func cleaned(_ tags: [String]) -> [String] {
    var kept: [String] = []
    for tag in tags where kept.count < maxTags {
      guard !tag.isEmpty,
        !tag.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }),
        !kept.contains(tag)
      else { continue }
      kept.append(tag)
    }
    return kept
  }

  /// What `culling` (a parsed packet) says; nil when it says no rating, label, tag or title.
  init?(_ culling: XMPCulling) {
    let label: Label? =
      switch culling.label {
      case .none: nil
      case .red: .red
      case .yellow: .yellow
      case .green: .green
      case .blue: .blue
      case .purple: .purple
      case .other: .other
      }
    let tags = Self.cleaned(
      culling.keywords + culling.tagPaths.map { $0.joined(separator: "/") })
    self.init(rating: culling.rating, label: label, tags: tags, title: culling.title)
    guard rating != nil || label != nil || !self.tags.isEmpty || title != nil else { return nil }
  }

  /// The rating that counts: this one, else the camera's `inCamera` (0…5).
  public func rating(over inCamera: Int?) -> Int? { rating ?? inCamera }
}
