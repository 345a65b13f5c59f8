import Foundation

/// A folder of local images as a feed, newest first, so a person can browse their own
/// pictures. Items are `file://` photos of one size each.
///
/// Listing is O(n log n) in the folder's entries (one sort by date).
public struct FolderFeedSource: FeedSource {
  public let noun = "photos"
  public var folder: URL
  /// File extensions shown, lower-case.
  public static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "webp", "gif"]

  public init(folder: URL) {
    self.folder = folder
  }

  public func fetch(page: Int) async throws(FeedError) -> FeedPage<PhotoViewModel> {
    try Self.photos(in: folder).map(PhotoViewModel.init)
  }

  static func photos(in folder: URL) throws(FeedError) -> FeedPage<Photo> {
    let path = folder.path
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
      throw .unreadableFolder(path: path, reason: "it does not exist")
    }
    guard isFolder.boolValue else {
      throw .unreadableFolder(path: path, reason: "it is not a folder")
    }
    let keys: [URLResourceKey] = [.contentModificationDateKey, .isRegularFileKey]
    let entries: [URL]
    do {
      entries = try FileManager.default.contentsOfDirectory(
        at: folder, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
    } catch {
      throw .unreadableFolder(path: path, reason: reason(error))
    }
    var dated: [(photo: Photo, date: Date)] = []
    for file in entries where imageExtensions.contains(file.pathExtension.lowercased()) {
      let values = try? file.resourceValues(forKeys: Set(keys))
      guard values?.isRegularFile ?? true else { continue }
      let date = values?.contentModificationDate ?? .distantPast
      let photo = Photo(
        id: file.lastPathComponent,
        title: file.deletingPathExtension().lastPathComponent,
        link: file, mediaURL: file, dateTaken: date, published: date,
        mediaPixelSize: ImageHeader.pixelSize(of: file))
      dated.append((photo, date))
    }
    guard !dated.isEmpty else { throw .emptyFeed }
    dated.sort { $0.date != $1.date ? $0.date > $1.date : $0.photo.id < $1.photo.id }
    return FeedPage(items: dated.map(\.photo))
  }

  private static func reason(_ error: any Error) -> String {
    if let cocoa = error as? CocoaError, cocoa.code == .fileReadNoPermission {
      return "permission denied"
    }
    let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
    if underlying?.domain == NSPOSIXErrorDomain && underlying?.code == Int(EACCES) {
      return "permission denied"
    }
    return error.localizedDescription
  }
}
