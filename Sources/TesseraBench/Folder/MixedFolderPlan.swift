/// What `tessera bench folder --mixed` puts in its tree, shot by shot, oldest first: what a
/// camera card and a phone leave in one folder. The kinds repeat in a cycle of eight, so any
/// eight shots in a row (the newest eight are a 160×40 first screen) hold every kind: camera
/// JPEGs, RAW+JPEG pairs and lone RAWs of two RAW families (CR2, a TIFF; CR3, ISO boxes), and
/// videos in two containers. Shot `n` is taken `n` minutes after the first, by the clock of
/// `FolderBenchTree.taken`, so the gallery's newest-first order is the plan's, reversed.
struct MixedFolderPlan: Equatable {
  enum RawFamily: String, CaseIterable {
    case cr2 = "CR2"
    case cr3 = "CR3"
  }

  enum VideoContainer: String, CaseIterable {
    case mp4 = "MP4"
    case mkv = "mkv"
  }

  enum Kind: Equatable {
    /// A camera JPEG alone.
    case jpeg
    /// A camera set to RAW+JPEG: a RAW and a JPEG of one name, shown once, by the JPEG.
    case pair(RawFamily)
    /// A RAW whose JPEG is gone (or never was): shown by the preview the camera embedded.
    case raw(RawFamily)
    /// A short clip, shown by its poster.
    case video(VideoContainer)
  }

  struct Shot: Equatable {
    /// 0 for the oldest; also the camera photo (`FolderBenchTree`'s) its pictures come from.
    var index: Int
    var kind: Kind
    /// The files written for it; a pair's JPEG first.
    var files: [String]
    /// The tile's caption: the name the gallery shows and the badge before it.
    var shown: String
    var badge: String?
  }

  static let cycle: [Kind] = [
    .jpeg, .pair(.cr2), .video(.mp4), .raw(.cr3), .jpeg, .pair(.cr3), .video(.mkv), .raw(.cr2),
  ]

  let shots: [Shot]

  init(count: Int) {
    shots = (0..<count).map { index in
      let kind = Self.cycle[index % Self.cycle.count]
      // Canon's names for its stills and clips; a Matroska file is a phone's or a screen
      // recorder's.
      let stem = String(format: "IMG_%04d", index + 1)
      switch kind {
      case .jpeg:
        return Shot(index: index, kind: kind, files: [stem + ".JPG"], shown: stem + ".JPG")
      case .pair(let family):
        return Shot(
          index: index, kind: kind, files: [stem + ".JPG", stem + "." + family.rawValue],
          shown: stem + ".JPG", badge: "RAW+")
      case .raw(let family):
        let name = stem + "." + family.rawValue
        return Shot(index: index, kind: kind, files: [name], shown: name)
      case .video(let container):
        let name =
          String(format: container == .mp4 ? "MVI_%04d" : "clip_%04d", index + 1) + "."
          + container.rawValue
        return Shot(index: index, kind: kind, files: [name], shown: name, badge: "▶")
      }
    }
  }

  /// The shots a first screen of `count` tiles shows, in its order: the newest first.
  func firstScreen(_ count: Int) -> [Shot] { Array(shots.suffix(count).reversed()) }

  /// How many shots of each kind `shots` holds, as "2 camera JPEGs, 1 RAW+JPEG pair (CR2)…".
  static func census(_ shots: [Shot]) -> String {
    let groups: [(String, (Kind) -> String?)] = [
      ("camera JPEG", { $0 == .jpeg ? "" : nil }),
      ("RAW+JPEG pair", { if case .pair(let family) = $0 { family.rawValue } else { nil } }),
      ("lone RAW", { if case .raw(let family) = $0 { family.rawValue } else { nil } }),
      ("video", { if case .video(let container) = $0 { container.rawValue } else { nil } }),
    ]
    return groups.compactMap { noun, label in
      let labels = shots.compactMap { label($0.kind) }
      guard !labels.isEmpty else { return nil }
      let kinds = Set(labels).subtracting([""]).sorted()
      return "\(labels.count) \(noun)\(labels.count == 1 ? "" : "s")"
        + (kinds.isEmpty ? "" : " (\(kinds.joined(separator: ", ")))")
    }.joined(separator: ", ")
  }
}
