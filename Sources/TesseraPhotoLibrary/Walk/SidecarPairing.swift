import Foundation

/// Culling tools keep a photo's rating, label and tags in an XMP file beside it, under one of
/// two names: the photo's whole name and `.xmp` (`IMG_0001.CR2.xmp`: darktable, digiKam,
/// Immich) or its stem and `.xmp` (`IMG_0001.xmp`: Lightroom, Capture One, Immich). The walk
/// lists them with the photos of their folder and names each on its photo
/// (`WalkedFile.sidecar`): no photo costs a look-up of its own.
///
/// Where several could be a photo's, the first of these is: the shown file's own
/// (`IMG_0001.JPG.xmp`), its RAW's (`IMG_0001.CR2.xmp`, for a RAW+JPEG pair), the stem's
/// (`IMG_0001.xmp`); each with `.xmp` before `.XMP`.
package enum SidecarPairing {
  /// Whether `name` is a sidecar's: it ends in `.xmp` or `.XMP` after a stem. O(1).
  static func isSidecarName(_ name: String) -> Bool {
    let bytes = name.utf8
    guard bytes.count > 4 else { return false }
    let suffix = bytes.suffix(4)
    return suffix.elementsEqual(".xmp".utf8) || suffix.elementsEqual(".XMP".utf8)
  }

  /// The names a sidecar of `file` may have before `.xmp`, in the order they are preferred:
  /// the file's own and its RAW's (`own`, the names darktable and digiKam write), then its
  /// stem (Lightroom's). O(name).
  struct Bases {
    var own: [String]
    var stem: String?

    init(of file: WalkedFile) {
      self.init(name: file.name, rawCompanion: file.rawCompanion)
    }

    init(name: String, rawCompanion: String?) {
      own = [name] + (rawCompanion.map { [$0] } ?? [])
      stem = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : String(name[..<$0]) }
    }

    /// Every candidate sidecar name, most preferred first: at most six.
    var candidates: [String] {
      (own + (stem.map { [$0] } ?? [])).flatMap(SidecarPairing.names(for:))
    }
  }

  /// A base's sidecar names: `.xmp` before `.XMP`.
  static func names(for base: String) -> [String] { [base + ".xmp", base + ".XMP"] }

  /// Names each of `files[start...]` (one folder's) its sidecar among `sidecars` (the
  /// folder's, by name).
  ///
  /// - Complexity: O(files) dictionary look-ups, at most six a file.
  static func pair(
    _ files: inout [WalkedFile], from start: Int, sidecars: [String: XMPSidecar]
  ) {
    guard !sidecars.isEmpty, start < files.count else { return }
    for index in start..<files.count {
      files[index].sidecar =
        Bases(of: files[index]).candidates.lazy
        .compactMap { sidecars[$0] }.first
    }
  }

  /// The sidecar of the one photo at `path`, named as the walk names it (``Bases``), with its
  /// RAW companion found as ``RAWPairing`` finds one (a RAW of its stem beside it, in lower or
  /// upper case): the first candidate that is a regular file (a symbolic link never is a
  /// sidecar), or nil. For `tessera info`, which reads files one at a time.
  ///
  /// - Complexity: O(RAW extensions) `lstat` calls.
  package static func sidecarPath(ofPhotoAt path: String) -> String? {
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    func isRegularFile(_ name: String) -> Bool {
      var status = stat()
      return lstat(folder + name, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }
    var rawCompanion: String?
    if let dot = name.lastIndex(of: "."), dot != name.startIndex,
      RAWPairing.code(ofExtension: name[name.index(after: dot)...]) == 0
    {
      let stem = name[..<dot]
      rawCompanion = RAWPairing.extensions.lazy
        .flatMap { [stem + "." + $0, stem + "." + $0.uppercased()] }
        .first(where: isRegularFile)
    }
    let bases = Bases(name: name, rawCompanion: rawCompanion)
    return bases.candidates.first(where: isRegularFile).map { folder + $0 }
  }
}
