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
  private let media: Media

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
    media = .photo(photo)
  }

  init(user: UserViewModel) {
    id = user.id
    kind = .user(role: user.role)
    title = user.username
    subtitle = user.roleText
    body = ""
    placeholder = user.initials.isEmpty ? "?" : user.initials
    knownHeightPerWidth = 1
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
