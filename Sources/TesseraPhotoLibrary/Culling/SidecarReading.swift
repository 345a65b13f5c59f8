import Foundation
import TesseraPhotoFormats

extension PhotoHeaderReading {
  /// What the XMP sidecar at `path` says a person decided; nil when it cannot be read (a
  /// symbolic link, not a regular file, over `XMPPacket.maxPacketBytes`), is no XMP, or says
  /// no rating, label or tag. A byte that is not UTF-8 in a value is read as the
  /// Windows-1252 character it would be (the XMP Toolkit's recovery), so what it says is
  /// always valid text. Blocking: one open and one read.
  public func culling(ofSidecarAt path: String) -> PhotoCulling? {
    let read = LocalFile.readPrefix(
      path: path, limit: XMPPacket.maxPacketBytes, maxFileSize: XMPPacket.maxPacketBytes)
    guard case .success(let contents) = read, let packet = XMPPacket(contents.bytes) else {
      return nil
    }
    return PhotoCulling(XMPCulling(packet))
  }

  /// The header of the photo at `path` with what its sidecar at `sidecar` says: its header
  /// as `header(ofFileAt:)` reads it, and, when it has one, the sidecar read too; what the
  /// sidecar says replaces what the file's own XMP said (`PhotoHeader.culling`).
  func header(ofFileAt path: String, sidecar: String?) -> PhotoHeader? {
    let header = self.header(ofFileAt: path)
    // A photo whose own header cannot be read still shows what its sidecar says.
    guard let sidecar, let culling = culling(ofSidecarAt: sidecar) else { return header }
    var withCulling = header ?? PhotoHeader()
    withCulling.culling = culling
    return withCulling
  }
}
