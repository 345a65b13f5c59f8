import Foundation
import TesseraPhotoFormats

/// A sidecar's three tag arrays, as the tools write them: `dc:subject` (keywords, every tool),
/// Lightroom's `lr:hierarchicalSubject` ("People|Ann") and digiKam's `digiKam:TagsList`
/// ("People/Ann"). A tag Tessera adds goes where each tool looks for it: a keyword into
/// `dc:subject`; a path ("People/Ann", as `PhotoCulling.tags` spells it) into both path arrays
/// and its last level into `dc:subject`, as Lightroom and digiKam write a path themselves.
///
/// - Complexity: each change O(items of the three arrays).
public struct SidecarTags: Equatable, Sendable {
  var subject: [String]
  var hierarchical: [String]
  var tagsList: [String]

  /// What `packet` holds now.
  init(_ packet: XMPPacket) {
    subject = packet.items(.dublinCore, "subject")
    hierarchical = packet.items(.lightroom, "hierarchicalSubject")
    tagsList = packet.items(.digiKam, "TagsList")
  }

  /// Puts the three arrays back into `packet` as they were (an undo).
  func write(into packet: XMPPacket) {
    packet.setItems(.dublinCore, "subject", to: subject)
    packet.setItems(.lightroom, "hierarchicalSubject", to: hierarchical)
    packet.setItems(.digiKam, "TagsList", to: tagsList, ordered: true)
  }

  /// Adds `tag` (a keyword, or a path with its levels joined by "/") to `packet`.
  static func add(_ tag: String, to packet: XMPPacket) {
    let levels = self.levels(of: tag)
    guard let leaf = levels.last else { return }
    packet.addItem(.dublinCore, "subject", leaf)
    guard levels.count > 1 else { return }
    packet.addItem(.lightroom, "hierarchicalSubject", levels.joined(separator: "|"))
    packet.addItem(.digiKam, "TagsList", levels.joined(separator: "/"), ordered: true)
  }

  /// Removes `tag` from `packet`: the keyword that is its last level, and the path in both
  /// spellings (a one-level path of a keyword's name too).
  static func remove(_ tag: String, from packet: XMPPacket) {
    let levels = self.levels(of: tag)
    guard let leaf = levels.last else { return }
    packet.removeItem(.dublinCore, "subject", leaf)
    packet.removeItem(.lightroom, "hierarchicalSubject", levels.joined(separator: "|"))
    packet.removeItem(.digiKam, "TagsList", levels.joined(separator: "/"))
  }

  /// "People/Ann" as its levels, each trimmed, empty ones left out.
  static func levels(of tag: String) -> [String] {
    tag.split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
  }
}
