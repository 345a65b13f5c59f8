import Foundation
import TesseraFeeds

/// One tile of the gallery, whatever feed it came from: what its cells show and where its
/// image is. Built once per feed item, so configuring a cell only assigns.
struct GalleryItem: Sendable, Hashable, Identifiable {
  enum Kind: Sendable, Hashable {
    case photo
    case user(role: Role)
  }

  let id: String
  let kind: Kind
  /// Height ÷ width of the image when the feed says so, before it loads.
  let knownHeightPerWidth: Double?
  private let content: Content

  /// A feed item's text is made once (boxed: a feed item is large, a local one is not); a
  /// local photo keeps only its `LocalPhoto` (whose strings it shares with the library) and
  /// makes its text when a cell asks: a 100,000-photo walk holds 100,000 items, of which a
  /// screen shows a few dozen.
  private enum Content: Sendable {
    indirect case feed(FeedText, Media)
    case local(LocalPhoto)
  }

  private struct FeedText: Sendable {
    var title: String
    var subtitle: String
    var body: String
    var placeholder: String
  }

  /// The first line of a caption: the title, or the username.
  var title: String {
    switch content {
    case .feed(let text, _): text.title
    case .local(let photo): photo.file.name
    }
  }

  /// Shorter facts under the title: author and date, or the role.
  var subtitle: String {
    switch content {
    case .feed(let text, _): text.subtitle
    case .local(let photo):
      photo.header?.exif?.taken.map(\.description) ?? "modified \(photo.modified.description)"
    }
  }

  /// Text that wraps in list rows and the detail view: tags, summary.
  var body: String {
    if case .feed(let text, _) = content { return text.body }
    return ""
  }

  /// Placeholder text while the image loads (initials for avatars).
  var placeholder: String {
    if case .feed(let text, _) = content { return text.placeholder }
    return "…"
  }

  /// What the detail view tells of a local photo; nil for feed items.
  var local: LocalFacts? {
    guard case .local(let photo) = content else { return nil }
    let exif = photo.header?.exif
    return LocalFacts(
      path: photo.file.path, fileSize: photo.file.size, pixelSize: photo.header?.pixelSize,
      taken: exif?.taken?.description, modified: photo.modified.description, model: exif?.model,
      headerRead: photo.headerRead)
  }

  /// A local photo's facts, as far as its header told them.
  struct LocalFacts: Sendable, Hashable {
    var path: String
    var fileSize: Int
    /// As shown (EXIF orientations 5…8 swap the stored sides).
    var pixelSize: PixelSize?
    /// "2024-05-01 14:30", from EXIF; nil when only the modification time is known.
    var taken: String?
    var modified: String
    var model: String?
    /// False until the header was read: the facts may still grow.
    var headerRead: Bool

    /// The detail view's lines: "4000 × 3000 px · 3.2 MB", "taken 2024-05-01 14:30 · Pixel 8", path.
    var lines: [String] {
      let size = pixelSize.map { "\($0.width) × \($0.height) px" } ?? "size unknown"
      let when = taken.map { "taken \($0)" } ?? "modified \(modified)"
      return [
        "\(size) · \(ByteCount.format(fileSize))",
        ([when] + (model.map { [$0] } ?? [])).joined(separator: " · "),
        path,
      ]
    }
  }

  private enum Media: Sendable {
    case photo(PhotoViewModel)
    case url(URL?)
  }

  init(photo: PhotoViewModel) {
    id = photo.id
    kind = .photo
    knownHeightPerWidth = photo.aspectRatio.map { 1 / $0 }
    content = .feed(
      FeedText(
        title: photo.title,
        subtitle: [photo.author, photo.dateText].filter { !$0.isEmpty }.joined(separator: " · "),
        body: [photo.tagsText, photo.summary].filter { !$0.isEmpty }.joined(separator: "\n"),
        placeholder: "…"),
      .photo(photo))
  }

  /// A photo of a local walk: its id is its path, its image the file itself.
  init(local photo: LocalPhoto) {
    id = photo.file.path
    kind = .photo
    knownHeightPerWidth = photo.header?.pixelSize?.aspectRatioWithinFeedLimits.map { 1 / $0 }
    content = .local(photo)
  }

  init(user: UserViewModel) {
    id = user.id
    kind = .user(role: user.role)
    knownHeightPerWidth = 1
    content = .feed(
      FeedText(
        title: user.username, subtitle: user.roleText, body: "",
        placeholder: user.initials.isEmpty ? "?" : user.initials),
      .url(user.avatarURL))
  }

  /// The smallest variant of the image that covers `width` × `height` pixels.
  func imageURL(coveringWidth width: Int, height: Int) -> URL? {
    switch content {
    case .feed(_, .photo(let photo)): photo.mediaURL(covering: width, height)
    case .feed(_, .url(let url)): url
    case .local(let photo): URL(fileURLWithPath: photo.file.path, isDirectory: false)
    }
  }

  static func == (lhs: GalleryItem, rhs: GalleryItem) -> Bool { lhs.id == rhs.id }
  func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
