import Foundation
import TesseraPhotoFormats

/// What a person decided about a photo in a culling tool (darktable, digiKam, Lightroom,
/// Capture One, Immich), as its XMP sidecar says: the rating or reject, and the colour label.
/// Keywords and titles are read (`XMPCulling`) but not kept per photo yet.
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

  public init(rating: Int? = nil, label: Label? = nil) {
    self.rating = rating.flatMap { (-1...5).contains($0) ? $0 : nil }
    self.label = label
  }

  /// What `culling` (a parsed packet) says; nil when it says neither a rating nor a label.
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
    guard culling.rating != nil || label != nil else { return nil }
    self.init(rating: culling.rating, label: label)
  }

  /// The rating that counts: this one, else the camera's `inCamera` (0…5).
  public func rating(over inCamera: Int?) -> Int? { rating ?? inCamera }
}
