import TesseraPhotoFormats
import TesseraUtilities

/// A camera set to RAW+JPEG writes two files of one name, `IMG_0001.CR2` and `IMG_0001.JPG`:
/// one photo. The walk keeps the JPEG (or HEIF), which shows faster and as the camera meant,
/// notes its RAW beside it (`WalkedFile.rawCompanion`), and leaves the RAW out of the list.
enum RAWPairing {
  /// Pairs the files of one folder, `files[start...]`: a RAW whose stem (the name before its
  /// last dot) another image of the folder has is removed and named on that image. Stems are
  /// compared exactly, as the file system does. Returns how many files were removed.
  ///
  /// - Complexity: O(files of the folder), one dictionary of stems.
  static func pair(_ files: inout [WalkedFile], from start: Int) -> Int {
    guard files.count - start >= 2 else { return 0 }
    var shown: [Substring: Int] = [:]
    var raws: [(stem: Substring, index: Int)] = []
    for index in start..<files.count {
      let name = files[index].nameSlice
      guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { continue }
      let stem = files[index].path[name.startIndex..<dot]
      let suffix = name[name.index(after: dot)...]
      if code(ofExtension: suffix) != 0 {
        raws.append((stem, index))
      } else if shown[stem] == nil {
        shown[stem] = index
      }
    }
    var removed: [Int] = []
    for raw in raws {
      guard let partner = shown[raw.stem], files[partner].rawCompanion == nil else { continue }
      files[partner].rawCompanion = files[raw.index].name
      removed.append(raw.index)
    }
    let gone = Set(removed)
    var kept = start
    for index in start..<files.count where !gone.contains(index) {
      files[kept] = files[index]
      kept += 1
    }
    files.removeLast(files.count - kept)
    return removed.count
  }

  /// RAW extensions in a fixed order, so the catalog keeps a companion in one byte.
  static let extensions = RawPreviewLocator.extensions.sorted()

  /// One byte for a RAW extension: its place in ``extensions`` plus one, with 0x80 when it is
  /// written in capitals ("CR2"); 0 for what is no RAW extension, or mixed case ("Cr2"),
  /// which is not paired.
  static func code(ofExtension suffix: Substring) -> UInt8 {
    let lower = suffix.lowercased()
    guard let place = extensions.firstIndex(of: lower), place < 0x7F else { return 0 }
    if suffix == lower { return UInt8(place + 1) }
    return suffix == suffix.uppercased() ? UInt8(place + 1) | 0x80 : 0
  }

  /// The extension `code` stands for, as it was written; nil for 0.
  static func suffix(ofCode code: UInt8) -> String? {
    let place = Int(code & 0x7F) - 1
    guard extensions.indices.contains(place) else { return nil }
    return code & 0x80 != 0 ? extensions[place].uppercased() : extensions[place]
  }
}
