/// The video files a folder may hold, by extension, with the MIME type a desktop's
/// thumbnailer entry names them by (the format table's video rows).
package enum VideoFile {
  package static let mimeTypes: [String: String] = Dictionary(
    PhotoFormat.videos.flatMap { format in format.extensions.map { ($0, format.mimeType) } },
    uniquingKeysWith: { first, _ in first })

  package static var extensions: Set<String> { Set(mimeTypes.keys) }

  /// The MIME type of `path` when its extension is a video's. O(path length).
  package static func mimeType(ofPath path: String) -> String? {
    guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
    return mimeTypes[path[path.index(after: dot)...].lowercased()]
  }
}
