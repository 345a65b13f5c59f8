import Foundation

/// A loaded image with where it came from: what `ImageTask.response` returns.
public struct ImageResponse: Sendable, Equatable, CustomStringConvertible {
  /// Where the pipeline found an image.
  public enum Origin: Sendable, Hashable, CustomStringConvertible {
    /// The memory cache held the decoded image: nothing was read or decoded.
    case memoryCache
    /// The disk cache held the encoded bytes, fresh, or confirmed unchanged by the server (a
    /// 304 answer to a conditional request, which carries no body).
    case diskCache
    /// The bytes were downloaded.
    case network
    /// The bytes were read from a local-folder file (`ImageRequest.Source.localFolder`).
    case localFile
    /// A thumbnail of a local-folder file, from the freedesktop.org thumbnail folders
    /// (`ThumbnailCache`): the original was neither read nor decoded.
    case thumbnailCache
    /// The bytes the request carried (`ImageRequest(id:data:)`).
    case providedData

    /// "memory cache", "disk cache", "network", "local file", "thumbnail cache" or "provided
    /// data".
    public var description: String {
      switch self {
      case .memoryCache: "memory cache"
      case .diskCache: "disk cache"
      case .network: "network"
      case .localFile: "local file"
      case .thumbnailCache: "thumbnail cache"
      case .providedData: "provided data"
      }
    }
  }

  /// The decoded image, at the request's size.
  public let image: Image
  /// The URL the request named.
  public let url: URL
  /// Where the image came from.
  public let origin: Origin

  /// A response for `image`, loaded from `url` out of `origin`.
  public init(image: Image, url: URL, origin: Origin) {
    self.image = image
    self.url = url
    self.origin = origin
  }

  /// "ImageResponse(URL, IMAGE, from ORIGIN)".
  public var description: String {
    "ImageResponse(\(url.absoluteString), \(image), from \(origin))"
  }
}
