import Foundation

/// An XMP sidecar beside a photo, as the walk's listing found it: its name in the photo's
/// folder and what `stat` said, so stored facts read from it are used only while it keeps
/// that size and modification time (a culling tool rewrites it when a person rates).
public struct XMPSidecar: Sendable, Equatable {
  public var name: String
  public var size: Int
  public var modified: Date

  public init(name: String, size: Int, modified: Date) {
    self.name = name
    self.size = size
    self.modified = modified
  }

  /// The path of the sidecar beside `photo` (a path).
  public func path(besidePhoto photo: String) -> String {
    guard let slash = photo.utf8.lastIndex(of: UInt8(ascii: "/")) else { return name }
    return String(photo[...slash]) + name
  }
}
