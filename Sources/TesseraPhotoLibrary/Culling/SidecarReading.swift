import Foundation
import TesseraPhotoFormats

extension PhotoHeaderReading {
  /// What the XMP sidecar at `path` says a person decided; nil when it cannot be read (a
  /// symbolic link, not a regular file, over `XMPPacket.maxPacketBytes`), is no XMP, or says
  /// no rating and no label. Blocking: one open and one read.
  public func culling(ofSidecarAt path: String) -> PhotoCulling? {
    let read = LocalFile.readPrefix(
      path: path, limit: XMPPacket.maxPacketBytes, maxFileSize: XMPPacket.maxPacketBytes)
    guard case .success(let contents) = read, let packet = XMPPacket(contents.bytes) else {
      return nil
    }
    return PhotoCulling(XMPCulling(packet))
  }

  /// The keywords (`dc:subject`) and tag paths (Lightroom's and digiKam's, levels joined by
  /// "/") of the XMP sidecar at `path`, for `PhotoQuery`'s `tag:`; empty when it cannot be
  /// read. Blocking: one open and one read.
  public func tags(ofSidecarAt path: String) -> [String] {
    let read = LocalFile.readPrefix(
      path: path, limit: XMPPacket.maxPacketBytes, maxFileSize: XMPPacket.maxPacketBytes)
    guard case .success(let contents) = read, let packet = XMPPacket(contents.bytes) else {
      return []
    }
    let culling = XMPCulling(packet)
    return culling.keywords + culling.tagPaths.map { $0.joined(separator: "/") }
  }

  /// The header of the photo at `path` with what its sidecar at `sidecar` says: its header
  /// as `header(ofFileAt:)` reads it, and, when it has one, the sidecar read too.
  func header(ofFileAt path: String, sidecar: String?) -> PhotoHeader? {
    let header = self.header(ofFileAt: path)
    // A photo whose own header cannot be read still shows what its sidecar says.
    guard let sidecar, let culling = culling(ofSidecarAt: sidecar) else { return header }
    var withCulling = header ?? PhotoHeader()
    withCulling.culling = culling
    return withCulling
  }
}
