import Foundation
import TesseraUtilities

/// The thumbnail folders of the freedesktop.org Thumbnail Managing Standard, which file
/// managers and image viewers share: `normal/` (128 px), `large/` (256), `x-large/` (512) and
/// `xx-large/` (1024), each holding `md5(file URI).png` with the original's URI and
/// modification time in PNG text chunks.
///
/// A pipeline with one (`ImagePipeline.Configuration.thumbnailCache`) looks there before it
/// decodes a local-folder original, taking the smallest thumbnail that covers the requested
/// box, and writes one there after decoding; so a folder a file manager has shown opens at
/// once, a second launch decodes nothing, and the file manager sees Tessera's thumbnails.
/// Originals that fail to decode are recorded under `fail/tessera-<version>/` and not tried
/// again until they change. Folders are made `0700`, files `0600`, each written to a
/// temporary file and renamed into place.
public struct ThumbnailCache: Sendable, Hashable {
  /// The `thumbnails` folder.
  public let directory: URL

  /// The thumbnail folders under `directory` (`defaultDirectory` unless given), which are
  /// made when the first thumbnail is written.
  public init(directory: URL = ThumbnailCache.defaultDirectory) {
    self.directory = directory
  }

  /// `$XDG_CACHE_HOME/thumbnails` when that variable is an absolute path, else
  /// `~/.cache/thumbnails`.
  public static var defaultDirectory: URL {
    CacheHome.url.appendingPathComponent("thumbnails", isDirectory: true)
  }

  /// The folder of failures this Tessera recorded. Its version goes up when the decoders
  /// change, so a file an older Tessera could not decode is tried again by a newer one.
  /// 2: formats Tessera does not show are named ("QOI images are not shown here"), not called
  /// damaged, and the failures recorded with the old words are tried again.
  static let failureFolderName = "tessera-2"

  func url(of size: ThumbnailSize, for name: ThumbnailURI) -> URL {
    directory.appendingPathComponent(size.folderName, isDirectory: true)
      .appendingPathComponent(name.hash + ".png")
  }

  func failureURL(for name: ThumbnailURI) -> URL {
    directory.appendingPathComponent("fail/\(Self.failureFolderName)", isDirectory: true)
      .appendingPathComponent(name.hash + ".png")
  }
}
