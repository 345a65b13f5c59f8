import Crypto
import Foundation
import TesseraUtilities

/// A file's identity in the thumbnail folders: its absolute `file://` URI, escaped the way
/// GLib's `g_filename_to_uri` does (what GNOME, KDE and most thumbnailers write), and the MD5
/// of that URI, which names the thumbnail file.
struct ThumbnailURI: Hashable, Sendable {
  /// "file:///home/me/Pictures/a%20b.jpg".
  let uri: String
  /// 32 lowercase hex digits: md5(uri).
  let hash: String

  /// The bytes GLib leaves unescaped in a path: letters, digits and `!$&'()*+,-./:=@_~`.
  private static let unreserved = Set("!$&'()*+,-./:=@_~".utf8)

  /// The URI of `path`, which must be absolute: `..` and `.` are resolved and repeated
  /// slashes collapsed, without following symbolic links (as a file manager names it).
  /// - Complexity: O(length of the path).
  init(path: String) {
    let standard = URL(fileURLWithPath: path).standardizedFileURL.path
    var escaped = "file://"
    // A name that is not UTF-8 is escaped as its own bytes, as GLib escapes it.
    for byte in FileSystemName.bytes(of: standard) {
      let isAlphanumeric =
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
      if isAlphanumeric || Self.unreserved.contains(byte) {
        escaped.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        escaped += String(format: "%%%02X", byte)
      }
    }
    self.uri = escaped
    self.hash = Insecure.MD5.hash(data: Data(escaped.utf8))
      .map { String(format: "%02x", $0) }.joined()
  }
}
