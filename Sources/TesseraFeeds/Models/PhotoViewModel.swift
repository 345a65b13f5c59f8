import Foundation

/// What a photo cell shows, computed once when the feed arrives so configuring a cell only
/// assigns: display title, author, date, tags and plain-text summary.
public struct PhotoViewModel: Identifiable, Equatable, Sendable, CustomStringConvertible {
  public let photo: Photo
  public var id: String { photo.id }
  /// The title, or "Untitled" when the feed's is empty.
  public let title: String
  public let author: String
  /// The date taken (or else published) as "1 May 2024", in UTC so every run reads the same.
  public let dateText: String
  /// "#sea #harbour"; empty without tags.
  public let tagsText: String
  /// The description as plain text, without Flickr's "… posted a photo:" preamble.
  public let summary: String
  /// Width / height when the feed states it; layouts size the cell before the image loads.
  public let aspectRatio: Double?

  public init(photo: Photo) {
    self.photo = photo
    let trimmed = photo.title.trimmingCharacters(in: .whitespacesAndNewlines)
    title = trimmed.isEmpty ? "Untitled" : trimmed
    author = photo.author
    dateText = (photo.dateTaken ?? photo.published).map(Self.format) ?? ""
    tagsText = photo.tags.map { "#\($0)" }.joined(separator: " ")
    summary = HTMLText.summary(photo.descriptionHTML)
    aspectRatio = photo.aspectRatio
  }

  /// See `Photo.mediaURL(covering:_:cropToSquare:)`.
  public func mediaURL(covering width: Int, _ height: Int, cropToSquare: Bool = false) -> URL {
    photo.mediaURL(covering: width, height, cropToSquare: cropToSquare)
  }

  private static func format(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    let parts = calendar.dateComponents([.day, .month, .year], from: date)
    let months = [
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    guard let day = parts.day, let month = parts.month, let year = parts.year,
      months.indices.contains(month - 1)
    else { return "" }
    return "\(day) \(months[month - 1]) \(year)"
  }

  public var description: String { "PhotoViewModel(\(id))" }
}
