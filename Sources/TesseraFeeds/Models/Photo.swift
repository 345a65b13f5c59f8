import Foundation
import TesseraUtilities

/// One photo of a feed: an entry of Flickr's public feed, or an image file of a local folder.
public struct Photo: Identifiable, Equatable, Sendable, CustomStringConvertible {
  /// How other sizes of the image are reached.
  public enum Sizing: Equatable, Sendable {
    /// A Flickr-style URL: the size suffix before the extension picks the variant.
    case flickr
    /// One file, one size (a local image, or a URL that does not follow Flickr's pattern).
    case fixed
  }

  /// Stable identity: Flickr's photo id, or the file name of a local image.
  public let id: String
  /// As the feed gives it; may be empty (Flickr allows untitled photos).
  public var title: String
  /// The photo's page (Flickr) or the file itself (folder).
  public var link: URL
  /// The image the feed names (Flickr's `media.m`, 240 px) or the local file.
  public var mediaURL: URL
  public var dateTaken: Date?
  public var published: Date?
  /// The author's display name, unwrapped from Flickr's `nobody@flickr.com ("name")`.
  public var author: String
  public var authorID: String
  public var tags: [String]
  /// The feed's description: HTML.
  public var descriptionHTML: String
  /// Pixel size of `mediaURL`'s image when the feed states it (the `<img>` in the
  /// description), which gives the aspect ratio before any image is downloaded.
  public var mediaPixelSize: PixelSize?
  public var sizing: Sizing

  public init(
    id: String, title: String, link: URL, mediaURL: URL, dateTaken: Date? = nil,
    published: Date? = nil, author: String = "", authorID: String = "", tags: [String] = [],
    descriptionHTML: String = "", mediaPixelSize: PixelSize? = nil, sizing: Sizing = .fixed
  ) {
    self.id = id
    self.title = title
    self.link = link
    self.mediaURL = mediaURL
    self.dateTaken = dateTaken
    self.published = published
    self.author = author
    self.authorID = authorID
    self.tags = tags
    self.descriptionHTML = descriptionHTML
    self.mediaPixelSize = mediaPixelSize
    self.sizing = sizing
  }

  /// Width / height when known.
  public var aspectRatio: Double? { mediaPixelSize?.aspectRatioWithinFeedLimits }

  /// The URL of the smallest variant that covers `width`×`height` pixels (see
  /// `FlickrSize.covering`). A fixed-size photo answers its one URL.
  public func mediaURL(covering width: Int, _ height: Int, cropToSquare: Bool = false) -> URL {
    guard sizing == .flickr else { return mediaURL }
    let size = FlickrSize.covering(
      width: width, height: height, aspect: aspectRatio, cropToSquare: cropToSquare)
    return mediaURL(size: size)
  }

  /// The URL of one Flickr size of this photo; `mediaURL` itself for a fixed-size photo.
  public func mediaURL(size: FlickrSize) -> URL {
    guard sizing == .flickr, let name = FlickrFileName(mediaURL.lastPathComponent) else {
      return mediaURL
    }
    return mediaURL.deletingLastPathComponent().appendingPathComponent(name.with(size: size))
  }

  public var description: String { "Photo(\(id), “\(title)”)" }
}

/// `{id}_{secret}[_{size}].{ext}`, Flickr's image file name.
struct FlickrFileName: Equatable {
  let id: String
  let secret: String
  let size: FlickrSize
  let fileExtension: String

  init?(_ name: String) {
    guard let dot = name.lastIndex(of: ".") else { return nil }
    let stem = name[..<dot]
    fileExtension = String(name[name.index(after: dot)...])
    let parts = stem.split(separator: "_", omittingEmptySubsequences: false)
    guard parts.count == 2 || parts.count == 3, !fileExtension.isEmpty,
      !parts[0].isEmpty, parts[0].allSatisfy(\.isNumber),
      !parts[1].isEmpty, parts[1].allSatisfy(\.isHexDigit)
    else { return nil }
    id = String(parts[0])
    secret = String(parts[1])
    if parts.count == 3 {
      guard let size = FlickrSize(rawValue: String(parts[2])), size != .medium500 else {
        return nil
      }
      self.size = size
    } else {
      size = .medium500
    }
  }

  func with(size: FlickrSize) -> String {
    size == .medium500
      ? "\(id)_\(secret).\(fileExtension)" : "\(id)_\(secret)_\(size.rawValue).\(fileExtension)"
  }
}
