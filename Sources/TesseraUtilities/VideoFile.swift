/// The video files a folder may hold, by extension, with the MIME type a desktop's
/// thumbnailer entry names them by.
package enum VideoFile {
  package static let mimeTypes: [String: String] = [
    "mp4": "video/mp4", "m4v": "video/x-m4v", "mov": "video/quicktime",
    "mkv": "video/x-matroska", "webm": "video/webm", "avi": "video/x-msvideo",
  ]

  package static var extensions: Set<String> { Set(mimeTypes.keys) }

  /// The MIME type of `path` when its extension is a video's. O(path length).
  package static func mimeType(ofPath path: String) -> String? {
    guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
    return mimeTypes[path[path.index(after: dot)...].lowercased()]
  }
}
