import Foundation
import TesseraFeeds
import TesseraPhotoFormats
import TesseraPhotoLibrary
import TesseraUtilities

/// One tile of the gallery, whatever feed it came from: what its cells show and where its
/// image is. Built once per feed item, so configuring a cell only assigns.
package struct GalleryItem: Sendable, Hashable, Identifiable {
  enum Kind: Sendable, Hashable {
    case photo
    case user(role: Role)
  }

  /// A feed item's facts are made once (boxed: a feed item is large, a local one is not); a
  /// local photo is its number in the library's catalog, read when asked: a 100,000-photo
  /// walk holds 100,000 items of 13 bytes and no allocation of their own, of which a screen
  /// shows a few dozen.
  private let content: Content

  private enum Content: Sendable {
    indirect case feed(FeedFacts)
    case local(LocalReference)
  }

  /// A photo in a catalog.
  struct LocalReference: Sendable {
    let catalog: PhotoCatalog
    let index: Int32

    var photo: LocalPhoto { catalog.photo(at: Int(index)) }
    /// The same for its path in every walk of this process (the selection stays on its
    /// photo when `r` walks again), and no allocation.
    var id: String { catalog.identifier(at: Int(index)) }
  }

  private struct FeedFacts: Sendable {
    var id: String
    var kind: Kind
    var knownHeightPerWidth: Double?
    var text: FeedText
    var media: Media
  }

  private struct FeedText: Sendable {
    var title: String
    var subtitle: String
    var body: String
    var placeholder: String
  }

  package var id: String {
    switch content {
    case .feed(let facts): facts.id
    case .local(let reference): reference.id
    }
  }

  /// The photo's number in its library's catalog; nil for feed items.
  var localIndex: Int? {
    guard case .local(let reference) = content else { return nil }
    return Int(reference.index)
  }

  var kind: Kind {
    switch content {
    case .feed(let facts): facts.kind
    case .local: .photo
    }
  }

  /// Height ÷ width of the image when the feed says so, before it loads.
  var knownHeightPerWidth: Double? {
    switch content {
    case .feed(let facts): facts.knownHeightPerWidth
    case .local(let reference):
      reference.catalog.pixelSize(at: Int(reference.index))?.aspectRatioWithinFeedLimits.map {
        1 / $0
      }
    }
  }

  /// When a local photo was taken (EXIF's date, in seconds), nil when unknown or a feed item.
  var takenSeconds: Int64? {
    guard case .local(let reference) = content else { return nil }
    return reference.catalog.takenSeconds(at: Int(reference.index))
  }

  /// The first line of a caption: the title, or the username.
  var title: String {
    switch content {
    case .feed(let facts): facts.text.title
    case .local(let reference): reference.photo.file.name
    }
  }

  /// Shorter facts under the title: author and date, or the role.
  var subtitle: String {
    switch content {
    case .feed(let facts): return facts.text.subtitle
    case .local(let reference):
      let photo = reference.photo
      return photo.header?.exif?.taken.map(\.description)
        ?? "modified \(photo.modified.description)"
    }
  }

  /// Text that wraps in list rows and the detail view: tags, summary. A local photo's tags
  /// are in its culling line (`LocalFacts.cullingLine`), with the sidecar they came from.
  var body: String {
    if case .feed(let facts) = content { return facts.text.body }
    return ""
  }

  /// Placeholder text while the image loads (initials for avatars).
  var placeholder: String {
    if case .feed(let facts) = content { return facts.text.placeholder }
    return "…"
  }

  /// What a filter (`PhotoQuery`) looks at: a local photo's facts, a feed item's title.
  var queryFacts: PhotoQuery.Facts {
    switch content {
    case .feed(let facts): PhotoQuery.Facts(name: facts.text.title, date: WallClockTime(seconds: 0))
    case .local(let reference): PhotoQuery.Facts(reference.photo)
    }
  }

  /// What the detail view tells of a local photo; nil for feed items.
  var local: LocalFacts? {
    guard case .local(let reference) = content else { return nil }
    let photo = reference.photo
    let exif = photo.header?.exif
    return LocalFacts(
      path: photo.file.path, fileSize: photo.file.size, pixelSize: photo.header?.pixelSize,
      taken: exif?.taken?.description, modified: photo.modified.description, model: exif?.model,
      headerRead: photo.headerRead, rawCompanion: photo.file.rawCompanion,
      duration: photo.header?.duration, isAnimated: photo.header?.isAnimated ?? false,
      rating: photo.header?.rating, label: photo.header?.culling?.label,
      tags: photo.header?.culling?.tags ?? [], title: photo.header?.culling?.title,
      sidecar: photo.file.sidecar?.name,
      motion: photo.motion)
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
    /// The camera RAW of the same name beside it (a RAW+JPEG pair, shown once).
    var rawCompanion: String?
    /// A video's length in seconds, when its container says.
    var duration: Double?
    /// An animated GIF or WebP: the detail view plays it.
    var isAnimated = false
    /// The rating that counts (the sidecar's, else the camera's): −1 rejected, 0…5.
    var rating: Int?
    var label: PhotoCulling.Label?
    /// Keywords and tag paths from the sidecar (`PhotoCulling.tags`).
    var tags: [String] = []
    /// The sidecar's title (`dc:title`).
    var title: String?
    /// The XMP sidecar's name, when the photo has one.
    var sidecar: String?
    /// A Live Photo's video beside it, or a motion photo's video appended to it
    /// (`LocalPhoto.motion`): what a player of the detail view plays. Nil for a still photo.
    var motion: MotionSource?

    /// What a tile says of a photo that moves (a Live Photo, a motion photo); nil otherwise.
    var motionBadge: String? { motion == nil ? nil : "LIVE" }

    /// The Live Photo's video file beside it, which `d` moves to the Trash with the photo;
    /// nil for a motion photo (its video is in its own file) and a still photo.
    var motionCompanionPath: String? {
      guard let motion, motion.isCompanionFile else { return nil }
      return motion.path
    }

    /// "LIVE · motion IMG_1.MOV beside it …", "LIVE · motion photo · its video 1.9 MB, …":
    /// the detail view's line; nil for a still photo.
    var motionLine: String? {
      guard let motion else { return nil }
      if motion.isCompanionFile {
        let name = motion.path.split(separator: "/").last.map(String.init) ?? motion.path
        return "LIVE · motion \(name) beside it (d moves both to the Trash)"
      }
      let length = motion.byteLength.map { " · its video \(ByteCount.rounded(Int($0)))" } ?? ""
      return "LIVE · motion photo\(length), appended to the file"
    }

    var isRejected: Bool { rating == PhotoCulling.rejected }

    /// What a tile says of the rating: "✗" rejected, a star each ("★★★"); nil for none.
    var ratingMark: String? {
      guard let rating else { return nil }
      if rating == PhotoCulling.rejected { return "✗" }
      return rating > 0 ? String(repeating: "★", count: rating) : nil
    }

    /// A video, shown by its poster.
    var isVideo: Bool { VideoFile.mimeType(ofPath: path) != nil }

    /// What a tile says before its name: a video's "▶ 0:42" (or "▶" while, or when, its
    /// length is not known), an animation's "↻"; nil for a still photo.
    var badge: String? {
      if isAnimated { return "↻" }
      guard isVideo else { return nil }
      return duration.map { "▶ " + DurationText.text(seconds: $0) } ?? "▶"
    }

    /// The RAW's path: the photo's folder and the RAW's name.
    var rawCompanionPath: String? {
      guard let rawCompanion else { return nil }
      guard let slash = path.lastIndex(of: "/") else { return rawCompanion }
      return String(path[...slash]) + rawCompanion
    }

    /// The detail view's lines: "4000 × 3000 px · 3.2 MB", "taken 2024-05-01 14:30 · Pixel 8", path.
    var lines: [String] {
      let size = pixelSize.map { "\($0.width) × \($0.height) px" } ?? "size unknown"
      let when = taken.map { "taken \($0)" } ?? "modified \(modified)"
      return [
        "\(size) · \(ByteCount.rounded(fileSize))",
        ([when] + (model.map { [$0] } ?? [])).joined(separator: " · "),
        path,
      ] + (rawCompanion.map { ["RAW+JPEG: \($0) beside it (d moves both to the Trash)"] } ?? [])
        + (isVideo
          ? [
            (["video"] + (duration.map { [DurationText.text(seconds: $0)] } ?? [])
              + ["Space pauses · o opens it outside"]).joined(separator: " · ")
          ] : [])
        + (isAnimated ? ["animation · it plays here, fitted; a zoom shows its first frame"] : [])
        + (motionLine.map { [$0] } ?? [])
        + (cullingLine.map { [$0] } ?? [])
    }

    /// "“Pier at dusk” · ★★★☆☆ · label Red · tags wedding, People/Ann · from IMG_1.CR2.xmp",
    /// "rejected · …"; nil when nothing was decided.
    var cullingLine: String? {
      var parts: [String] = []
      if let title { parts.append("“\(title)”") }
      if let rating {
        parts.append(
          rating == PhotoCulling.rejected
            ? "rejected"
            : String(repeating: "★", count: rating) + String(repeating: "☆", count: 5 - rating))
      }
      if let label { parts.append("label \(label.name)") }
      if !tags.isEmpty { parts.append("tags " + tags.joined(separator: ", ")) }
      guard !parts.isEmpty else { return nil }
      parts.append(sidecar.map { "from \($0)" } ?? "rated in the camera")
      return parts.joined(separator: " · ")
    }
  }

  private enum Media: Sendable {
    case photo(PhotoViewModel)
    case url(URL?)
  }

  init(photo: PhotoViewModel) {
    content = .feed(
      FeedFacts(
        id: photo.id, kind: .photo, knownHeightPerWidth: photo.aspectRatio.map { 1 / $0 },
        text: FeedText(
          title: photo.title,
          subtitle: [photo.author, photo.dateText].filter { !$0.isEmpty }.joined(separator: " · "),
          body: [photo.tagsText, photo.summary].filter { !$0.isEmpty }.joined(separator: "\n"),
          placeholder: "…"),
        media: .photo(photo)))
  }

  /// Photo `index` of a local walk's `catalog`: its image is the file itself.
  init(local index: Int, in catalog: PhotoCatalog) {
    content = .local(LocalReference(catalog: catalog, index: Int32(clamping: index)))
  }

  init(user: UserViewModel) {
    content = .feed(
      FeedFacts(
        id: user.id, kind: .user(role: user.role), knownHeightPerWidth: 1,
        text: FeedText(
          title: user.username, subtitle: user.roleText, body: "",
          placeholder: user.initials.isEmpty ? "?" : user.initials),
        media: .url(user.avatarURL)))
  }

  /// The smallest variant of the image that covers `width` × `height` pixels.
  func imageURL(coveringWidth width: Int, height: Int) -> URL? {
    switch content {
    case .feed(let facts):
      switch facts.media {
      case .photo(let photo): photo.mediaURL(covering: width, height)
      case .url(let url): url
      }
    case .local(let reference):
      URL(fileURLWithPath: reference.catalog.path(at: Int(reference.index)), isDirectory: false)
    }
  }

  package static func == (lhs: GalleryItem, rhs: GalleryItem) -> Bool { lhs.id == rhs.id }
  package func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
