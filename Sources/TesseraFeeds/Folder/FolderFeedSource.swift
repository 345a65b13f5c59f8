import Foundation
import TesseraPhotoFormats
import TesseraPhotoLibrary
import TesseraUtilities

/// A folder of local images as a feed, newest first, so a person can browse their own
/// pictures. Items are `file://` photos of one size each.
///
/// Listing is O(n log n) in the folder's entries (sorts by name and by date); each image costs
/// one `open` and at most `FeedLimits.maxHeaderBytes` read.
public struct FolderFeedSource: FeedSource {
  public let noun = "photos"
  public var folder: URL
  /// File extensions shown, lower-case: the still formats of the format table, as the folder
  /// walk lists them (RAW files and videos need the walk's previews and posters).
  public static let imageExtensions = PhotoFormat.extensions(of: [.still])

  public init(folder: URL) {
    self.folder = folder
  }

  /// Lists the folder on a blocking queue, never on the cooperative pool: a slow disk stalls
  /// no other task.
  public func fetch(page: Int) async throws(FeedError) -> FeedPage<PhotoViewModel> {
    let folder = folder
    return try await BlockingWork.run { () throws(FeedError) -> FeedPage<PhotoViewModel> in
      try Self.photos(in: folder).map(PhotoViewModel.init)
    }
  }

  /// The folder's images. Each file is opened once, without following a symlink and without
  /// blocking on a FIFO; what was opened must be a regular file of at most
  /// `FeedLimits.maxLocalFileBytes`. Anything else is skipped with the reason. Hidden files
  /// and other extensions are ignored; at most `FeedLimits.maxFolderEntries` names are looked at.
  static func photos(in folder: URL) throws(FeedError) -> FeedPage<Photo> {
    let path = folder.path
    // By its bytes, as the walk lists: a name that is not UTF-8 is listed and opened too.
    var info = stat()
    guard FileSystemName.withCString(path, { stat($0, &info) }) == 0 else {
      throw .unreadableFolder(path: path, reason: "it does not exist")
    }
    guard info.st_mode & S_IFMT == S_IFDIR else {
      throw .unreadableFolder(path: path, reason: "it is not a folder")
    }
    let names: [String]
    switch FolderListing.names(of: path) {
    case .success(let listed): names = listed
    case .failure(let error): throw .unreadableFolder(path: path, reason: error.reason)
    }
    let images = names.filter {
      !$0.hasPrefix(".") && imageExtensions.contains(($0 as NSString).pathExtension.lowercased())
    }.sorted().prefix(FeedLimits.maxFolderEntries)
    var dated: [(photo: Photo, date: Date)] = []
    var skipped: [SkippedItem] = []
    for (index, name) in images.enumerated() {
      let file = folder.appendingPathComponent(name, isDirectory: false)
      let read = LocalFile.readPrefix(
        path: file.path, limit: FeedLimits.maxHeaderBytes,
        maxFileSize: FeedLimits.maxLocalFileBytes)
      switch read {
      case .failure(.notRegularFile(kind: "a folder")):
        continue  // a folder named like an image is no entry at all
      case .failure(let refusal):
        skipped.append(
          SkippedItem(index: index, field: "", reason: .invalid("“\(name)” \(refusal)")))
      case .success(let prefix):
        let photo = Photo(
          id: name, title: (name as NSString).deletingPathExtension,
          link: file, mediaURL: file, dateTaken: prefix.modified, published: prefix.modified,
          mediaPixelSize: ImageHeader.pixelSize(prefix.bytes))
        dated.append((photo, prefix.modified))
      }
    }
    guard !dated.isEmpty else {
      guard let first = skipped.first, case .invalid(let why) = first.reason else {
        throw .emptyFeed
      }
      throw .unreadableFolder(path: path, reason: "no image in it could be read: \(why)")
    }
    dated.sort { $0.date != $1.date ? $0.date > $1.date : $0.photo.id < $1.photo.id }
    return FeedPage(items: dated.map(\.photo), skipped: skipped)
  }
}
