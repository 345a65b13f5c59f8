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
  /// The first line of a caption: the title, or the username.
  let title: String
  /// Shorter facts under the title: author and date, or the role.
  let subtitle: String
  /// Text that wraps in list rows and the detail view: tags, summary.
  let body: String
  /// Placeholder text while the image loads (initials for avatars).
  let placeholder: String
  /// Height ÷ width of the image when the feed says so, before it loads.
  let knownHeightPerWidth: Double?
  /// What the detail view tells of a local photo; nil for feed items.
  let local: LocalFacts?
  private let media: Media

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
    title = photo.title
    subtitle = [photo.author, photo.dateText].filter { !$0.isEmpty }.joined(separator: " · ")
    body = [photo.tagsText, photo.summary].filter { !$0.isEmpty }.joined(separator: "\n")
    placeholder = "…"
    knownHeightPerWidth = photo.aspectRatio.map { 1 / $0 }
    local = nil
    media = .photo(photo)
  }

  /// A photo of a local walk: its id is its path, its image the file itself.
  init(local photo: LocalPhoto) {
    let file = photo.file
    id = file.path
    kind = .photo
    title = file.name
    let exif = photo.header?.exif
    let date = exif?.taken ?? photo.modified
    subtitle = exif?.taken != nil ? date.description : "modified \(date.description)"
    body = ""
    placeholder = "…"
    let size = photo.header?.pixelSize
    knownHeightPerWidth = size?.aspectRatioWithinFeedLimits.map { 1 / $0 }
    local = LocalFacts(
      path: file.path, fileSize: file.size, pixelSize: size, taken: exif?.taken?.description,
      modified: photo.modified.description, model: exif?.model, headerRead: photo.headerRead)
    media = .url(URL(fileURLWithPath: file.path, isDirectory: false))
  }

  init(user: UserViewModel) {
    id = user.id
    kind = .user(role: user.role)
    title = user.username
    subtitle = user.roleText
    body = ""
    placeholder = user.initials.isEmpty ? "?" : user.initials
    knownHeightPerWidth = 1
    local = nil
    media = .url(user.avatarURL)
  }

  /// The smallest variant of the image that covers `width` × `height` pixels.
  func imageURL(coveringWidth width: Int, height: Int) -> URL? {
    switch media {
    case .photo(let photo): photo.mediaURL(covering: width, height)
    case .url(let url): url
    }
  }

  static func == (lhs: GalleryItem, rhs: GalleryItem) -> Bool { lhs.id == rhs.id }
  func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
