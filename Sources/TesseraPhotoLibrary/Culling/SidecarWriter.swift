import Foundation
import TesseraPhotoFormats
import TesseraUtilities

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a culling key changes in a sidecar: Tessera owns `xmp:Rating` and `xmp:Label`, and
/// adds and removes tags in the three arrays the tools keep them in; it touches nothing else.
public enum CullingChange: Equatable, Sendable {
  /// −1 rejects, 0 unrates, 1…5 stars.
  case rating(Int)
  /// A colour label; nil removes it.
  case label(PhotoCulling.Label?)
  /// Both properties back to their text before an earlier change (nil: absent), for undo.
  case restore(rating: String?, label: String?)
  /// Tags added and removed, spelled as `PhotoCulling.tags` spells them ("People/Ann"):
  /// `SidecarTags` puts each where darktable, digiKam and Lightroom look.
  case tags(add: [String], remove: [String])
  /// The tag arrays back as they were before an earlier change, for undo.
  case restoreTags(SidecarTags)

  /// A change of tags, whose undo puts the tag arrays back.
  var changesTags: Bool {
    switch self {
    case .tags, .restoreTags: true
    case .rating, .label, .restore: false
    }
  }
}

/// Writes what a person decided into a photo's XMP sidecars without losing anything another
/// tool keeps there: the sidecar as it is on disk now is parsed (Exempi), the two properties
/// Tessera owns are set, and the whole packet is written back through `FileReplacement`
/// (temporary file in the same folder, `fsync`, rename; the sidecar's permission bits kept;
/// a new one `0644`). The photo itself is never written.
///
/// A sidecar that changed on disk between the read and the rename (darktable saved it in
/// that moment) is read and merged again, up to ``attempts`` times, never overwritten with
/// what was read before. A symbolic link, something not a regular file, a sidecar over
/// `XMPPacket.maxPacketBytes`, one that is not valid UTF-8 (read, as Windows-1252 where it
/// is not, but never rewritten) or one that is not XMP is refused with a reason and left as
/// it is.
package enum SidecarWriter {
  /// Why a sidecar was not written; each reads as a sentence for the status bar.
  package struct Failure: Error, Equatable, CustomStringConvertible {
    package let description: String
  }

  /// One sidecar written: its new stamp, what it now says, and the two properties' text
  /// before (for undo).
  package struct Written: Equatable, Sendable {
    package var path: String
    package var sidecar: XMPSidecar
    package var culling: PhotoCulling?
    package var ratingBefore: String?
    package var labelBefore: String?
    /// The tag arrays before a change of tags (for undo); nil for another change.
    package var tagsBefore: SidecarTags?
    /// The sidecar did not exist before: an undo removes it.
    package var created = false
  }

  /// Reads and merges again this many times when the sidecar keeps changing under it.
  static let attempts = 3

  /// The sidecars a change to `file`'s photo goes to, in the order the walk reads them
  /// (`SidecarPairing`): those of the photo's own name and its RAW's that exist (either
  /// spelling); else the stem's (Lightroom's) when it exists; else new ones where darktable
  /// and digiKam look for each file, `<name>.xmp` for the photo and for its RAW.
  /// - Complexity: at most six `lstat`s.
  package static func targets(for file: WalkedFile) -> [String] {
    let folder = file.folder == "." ? "" : (file.folder == "/" ? "/" : file.folder + "/")
    func existing(_ base: String) -> String? {
      SidecarPairing.names(for: base).map { folder + $0 }.first { path in
        var status = stat()
        return FileSystemName.withCString(path) { lstat($0, &status) } == 0
      }
    }
    let bases = SidecarPairing.Bases(of: file)
    let found = bases.own.compactMap(existing)
    if !found.isEmpty { return found }
    if let stem = bases.stem.flatMap(existing) { return [stem] }
    return bases.own.map { folder + $0 + ".xmp" }
  }

  /// The sidecar the walk would now name on `file` (`SidecarPairing`'s order) and what it
  /// says: what a photo shows after a write or an undo. Blocking: at most six `lstat`s and
  /// one read.
  package static func current(
    for file: WalkedFile
  ) -> (sidecar: XMPSidecar, culling: PhotoCulling?)? {
    let folder = file.folder == "." ? "" : (file.folder == "/" ? "/" : file.folder + "/")
    var present: [String: XMPSidecar] = [:]
    for name in SidecarPairing.Bases(of: file).candidates {
      guard let stamp = stamp(of: folder + name), stamp.isRegularFile else { continue }
      present[name] = XMPSidecar(name: name, size: stamp.size, modified: stamp.modified)
    }
    var files = [file]
    files[0].sidecar = nil
    SidecarPairing.pair(&files, from: 0, sidecars: present)
    guard let sidecar = files[0].sidecar else { return nil }
    return (sidecar, LocalPhotoHeaderReader().culling(ofSidecarAt: folder + sidecar.name))
  }

  /// Removes the sidecar at `path` that Tessera made, when it is still as Tessera wrote it
  /// (`written`); else only takes Tessera's two properties out of it. Blocking.
  package static func remove(_ path: String, ifStill written: XMPSidecar) throws(Failure) {
    if let now = stamp(of: path), now.size == written.size, now.modified == written.modified {
      guard FileSystemName.withCString(path, { unlink($0) }) == 0 else {
        throw Failure(
          description: "can't remove “\(written.name)” (\(String(cString: strerror(errno))))")
      }
      return
    }
    _ = try apply(.restore(rating: nil, label: nil), toSidecarAt: path)
  }

  /// Applies `change` to the sidecar at `path`, made when absent. Blocking.
  ///
  /// A sidecar made here starts with what the photo's own file says (`fromFile`: a label,
  /// tags and a title a tool wrote into it), as darktable and digiKam copy it into the
  /// sidecar they make on import: a sidecar's say replaces the file's (`PhotoHeader.culling`),
  /// so the photo keeps showing it.
  ///
  /// `beforeWrite` runs after each read and merge, just before the check for a change on
  /// disk: a test's seam for another tool saving the sidecar in that moment, which no test
  /// could otherwise hit without racing.
  package static func apply(
    _ change: CullingChange, toSidecarAt path: String, fromFile: PhotoCulling? = nil,
    beforeWrite: () -> Void = {}
  ) throws(Failure)
    -> Written
  {
    let name = (path as NSString).lastPathComponent
    for _ in 0..<attempts {
      // Taken before the read: a save during the read shows as a change before the rename.
      let before = stamp(of: path)
      let read = SafeFileRead.contents(path: path, maxFileSize: XMPPacket.maxPacketBytes)
      let packet: XMPPacket
      let mode = before?.mode ?? 0o644
      switch read {
      case .success(let contents):
        let bytes = [UInt8](contents.bytes)
        // The toolkit reads a byte that is not UTF-8 as Windows-1252 and would write it back
        // as that character's UTF-8: another tool's bytes changed. Read, never written.
        guard Self.isUnicode(bytes) else {
          throw Failure(description: "“\(name)” is not valid UTF-8: left as it is")
        }
        guard let parsed = XMPPacket(bytes) else {
          throw Failure(description: "“\(name)” is not XMP Tessera can read: left as it is")
        }
        packet = parsed
      case .failure(.notFound):
        guard let empty = XMPPacket() else {
          throw Failure(description: "the XMP toolkit did not start: “\(name)” not written")
        }
        packet = empty
        if let fromFile { seed(packet, with: fromFile) }
      case .failure(.symbolicLink):
        throw Failure(description: "“\(name)” is a symbolic link: not written through it")
      case .failure(.notRegularFile(let kind)):
        throw Failure(description: "“\(name)” is not a regular file (it is \(kind))")
      case .failure(.tooLarge(_, let limit)):
        throw Failure(
          description: "“\(name)” is larger than \(ByteCount.text(limit)): left as it is")
      case .failure(.unreadable(let reason)):
        throw Failure(description: "“\(name)” can't be read (\(reason))")
      }
      let ratingBefore = packet.property(.xmp, "Rating")
      let labelBefore = packet.property(.xmp, "Label")
      let tagsBefore = SidecarTags(packet)
      switch change {
      case .rating(let rating):
        packet.set(.xmp, "Rating", to: String(rating.clamped(to: -1...5)))
      case .label(let label):
        if let label, label != .other {
          packet.set(.xmp, "Label", to: label.name)
        } else {
          packet.delete(.xmp, "Label")
        }
      case .restore(let rating, let label):
        if let rating {
          packet.set(.xmp, "Rating", to: rating)
        } else {
          packet.delete(.xmp, "Rating")
        }
        if let label { packet.set(.xmp, "Label", to: label) } else { packet.delete(.xmp, "Label") }
      case .tags(let add, let remove):
        for tag in remove { SidecarTags.remove(tag, from: packet) }
        for tag in add { SidecarTags.add(tag, to: packet) }
      case .restoreTags(let tags):
        tags.write(into: packet)
      }
      guard let bytes = packet.sidecarBytes() else {
        throw Failure(description: "“\(name)” could not be serialized: left as it is")
      }
      beforeWrite()
      // Changed since it was read (another tool saved it): read and merge again.
      guard stamp(of: path) == before else { continue }
      do {
        try FileReplacement.replace(
          path, with: Data(bytes), mode: mode, durable: true, temporarySuffix: ".xmp")
      } catch {
        let folder = (path as NSString).deletingLastPathComponent
        throw Failure(
          description:
            "can't write “\(name)” in “\(folder)” (\(String(cString: strerror(error.code))))")
      }
      guard let written = stamp(of: path) else {
        throw Failure(description: "“\(name)” was written and is gone")
      }
      return Written(
        path: path, sidecar: XMPSidecar(name: name, size: written.size, modified: written.modified),
        culling: PhotoCulling(XMPCulling(packet)), ratingBefore: ratingBefore,
        labelBefore: labelBefore, tagsBefore: change.changesTags ? tagsBefore : nil,
        created: before == nil)
    }
    throw Failure(description: "“\(name)” kept changing while it was written: left as it is")
  }

  /// Whether `bytes` are valid UTF-8, or start with the byte-order mark of UTF-16 or UTF-32
  /// (which XMP also allows, and the toolkit decodes). O(bytes).
  static func isUnicode(_ bytes: [UInt8]) -> Bool {
    let marks: [[UInt8]] = [[0xFE, 0xFF], [0xFF, 0xFE], [0x00, 0x00, 0xFE, 0xFF]]
    if marks.contains(where: { bytes.starts(with: $0) }) { return true }
    return String(validating: bytes, as: UTF8.self) != nil
  }

  /// Writes into a new sidecar's `packet` what the photo's file says besides its rating (which
  /// stays the file's: `PhotoHeader.rating`). A label the person named themselves is not
  /// kept by name (`PhotoCulling.Label.other`), so it is not copied.
  private static func seed(_ packet: XMPPacket, with fromFile: PhotoCulling) {
    if let label = fromFile.label, label != .other { packet.set(.xmp, "Label", to: label.name) }
    for tag in fromFile.tags { SidecarTags.add(tag, to: packet) }
    if let title = fromFile.title { packet.setLocalizedText(.dublinCore, "title", to: title) }
  }

  /// What tells one version of a file from another, as `lstat` says.
  private struct Stamp: Equatable {
    var inode: UInt64
    var size: Int
    var modified: Date
    var mode: mode_t
    var isRegularFile: Bool
  }

  /// `path`'s stamp; nil when there is nothing.
  private static func stamp(of path: String) -> Stamp? {
    var status = stat()
    guard FileSystemName.withCString(path, { lstat($0, &status) }) == 0 else { return nil }
    let file = FolderWalker.file(path, status)
    return Stamp(
      inode: UInt64(truncatingIfNeeded: status.st_ino), size: file.size, modified: file.modified,
      mode: status.st_mode & 0o7777, isRegularFile: status.st_mode & S_IFMT == S_IFREG)
  }
}
