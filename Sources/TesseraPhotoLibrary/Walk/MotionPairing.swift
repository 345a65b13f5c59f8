/// A phone's Live Photo is two files of one name, `IMG_0001.HEIC` and `IMG_0001.MOV`: one
/// photo that moves. The walk keeps the image, notes its video beside it
/// (`WalkedFile.motionCompanion`), and leaves the video out of the list (whether or not the
/// walk lists videos). A RAW+JPEG+MOV stem keeps its JPEG, which carries both companions
/// (this runs before `RAWPairing`, so a listed MOV is gone before a RAW looks for its image).
enum MotionPairing {
  /// Image extensions that take a motion companion, lower-case: what phones write.
  static let imageExtensions: Set<String> = ["heic", "heif", "jpg", "jpeg"]
  /// Video extensions of a motion companion, in a fixed order, so the catalog keeps one in
  /// a byte (``code(ofExtension:)``).
  static let extensions = ["mov", "mp4"]

  /// Pairs the files of one folder, `files[start...]`, with the videos of that folder:
  /// those listed among the files (a walk with videos) and `unlisted` (names of videos the
  /// walk did not list). An image (HEIC, HEIF, JPG, JPEG in any case) whose stem (the name
  /// before its last dot) a video has gets that video's name as its `motionCompanion`; a
  /// listed video so paired is removed. When two images of one stem could take it
  /// (`IMG_1.HEIC` and `IMG_1.JPG`), the first name in UTF-8 order does, whatever order the
  /// folder listed them in. Stems are compared exactly, as the file system does; a video
  /// extension in mixed case ("Mov") is not paired. Returns how many files were removed.
  ///
  /// - Complexity: O(files of the folder + `unlisted`), one dictionary of stems.
  static func pair(_ files: inout [WalkedFile], from start: Int, unlisted: [String]) -> Int {
    guard start < files.count else { return 0 }
    var images: [Substring: Int] = [:]
    var listedVideos: [(stem: Substring, index: Int)] = []
    for index in start..<files.count {
      let name = files[index].nameSlice
      guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { continue }
      let stem = name[name.startIndex..<dot]
      let suffix = name[name.index(after: dot)...]
      if code(ofExtension: suffix) != 0 {
        listedVideos.append((stem, index))
      } else if imageExtensions.contains(suffix.lowercased()) {
        if let other = images[stem],
          !name.utf8.lexicographicallyPrecedes(files[other].nameSlice.utf8)
        {
          continue
        }
        images[stem] = index
      }
    }
    guard !images.isEmpty else { return 0 }
    var removed: Set<Int> = []
    func take(_ stem: Substring, name: @autoclosure () -> String) -> Bool {
      guard let image = images[stem], files[image].motionCompanion == nil else { return false }
      files[image].motionCompanion = name()
      return true
    }
    for video in listedVideos where take(video.stem, name: files[video.index].name) {
      removed.insert(video.index)
    }
    for name in unlisted {
      guard let dot = name.lastIndex(of: "."), dot != name.startIndex,
        code(ofExtension: name[name.index(after: dot)...]) != 0
      else { continue }
      _ = take(name[..<dot], name: name)
    }
    guard !removed.isEmpty else { return 0 }
    var kept = start
    for index in start..<files.count where !removed.contains(index) {
      files[kept] = files[index]
      kept += 1
    }
    files.removeLast(files.count - kept)
    return removed.count
  }

  /// Whether `name`'s extension is a motion companion's (`IMG_1.MOV`): the walk keeps such
  /// names of a folder that it does not list, to pair them. O(name length).
  static func isVideoName(_ name: String) -> Bool {
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
    return code(ofExtension: name[name.index(after: dot)...]) != 0
  }

  /// One byte for a motion companion's extension: its place in ``extensions`` plus one, with
  /// 0x80 when it is written in capitals ("MOV"); 0 for anything else, or mixed case.
  static func code(ofExtension suffix: Substring) -> UInt8 {
    guard suffix.utf8.count == 3 else { return 0 }
    let lower = suffix.lowercased()
    guard let place = extensions.firstIndex(of: lower) else { return 0 }
    if suffix == lower { return UInt8(place + 1) }
    return suffix == suffix.uppercased() ? UInt8(place + 1) | 0x80 : 0
  }

  /// The extension `code` stands for, as it was written; nil for 0 (or no code).
  static func suffix(ofCode code: UInt8) -> String? {
    let place = Int(code & 0x7F) - 1
    guard extensions.indices.contains(place) else { return nil }
    return code & 0x80 != 0 ? extensions[place].uppercased() : extensions[place]
  }
}
