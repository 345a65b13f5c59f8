import Foundation
import TesseraPhotoLibrary
import TesseraTerminal

/// One file's line of `tessera info`: what its header told, or why it was not read.
struct InfoLine {
  /// The path as given, control characters (C0, DEL, C1) and bidi controls shown as "?" (as
  /// `ls -q` shows them): a tab or newline in a name would otherwise split the line a script
  /// cuts, and a bidi override would show the rest of the line reversed.
  var path: String
  /// Pixel size, date taken, camera model and the rating that counts (−1 rejected, 0–5: a
  /// sidecar's, else the file's own); "-" for each the file did not tell.
  var fields: [String]
  /// Why the file was not read, as the end of a sentence about it ("is a symbolic link").
  var refusal: String?

  init(path: String, reader: some PhotoHeaderReading) {
    self.path = TerminalText.questionMarked(path)
    guard let header = reader.header(ofFileAt: path) else {
      fields = ["-", "-", "-", "-"]
      refusal = Self.refusal(path)
      return
    }
    let rating = Self.sidecarRating(of: path, reader: reader) ?? header.exif?.rating
    fields = [
      header.pixelSize?.description ?? "-",
      header.exif?.taken?.descriptionWithSeconds ?? "-",
      header.exif?.model ?? "-",
      rating.map(String.init) ?? "-",
    ]
  }

  /// The rating in the photo's sidecar, looked for as the gallery's walk names it
  /// (`SidecarPairing`: the whole name's, its RAW companion's, then the stem's); nil when none
  /// says one.
  private static func sidecarRating(of path: String, reader: some PhotoHeaderReading) -> Int? {
    SidecarPairing.sidecarPath(ofPhotoAt: path).flatMap {
      reader.culling(ofSidecarAt: $0)?.rating
    }
  }

  /// A rating as a person reads it: "★★★", "0 stars", "rejected", "-".
  static func stars(_ field: String) -> String {
    guard let rating = Int(field) else { return "-" }
    switch rating {
    case -1: return "rejected"
    case 0: return "0 stars"
    case 1...5: return String(repeating: "★", count: rating)
    default: return "-"
    }
  }

  /// Why the reader gave nothing: it reads through `LocalFile` but keeps the refusal to itself,
  /// so the first byte is asked for again, the same way.
  private static func refusal(_ path: String) -> String {
    switch LocalFile.readPrefix(path: path, limit: 1, maxFileSize: FeedLimits.maxLocalFileBytes) {
    case .failure(let refusal): refusal.description
    case .success: "changed while it was read"
    }
  }

  var tabSeparated: String {
    ([path] + fields + [refusal ?? "-"]).joined(separator: "\t")
  }

  /// The lines as columns a person reads: paths and sizes padded to the longest; a file not
  /// read has the reason in place of its fields.
  static func aligned(_ lines: [InfoLine]) -> [String] {
    let pathWidth = lines.map(\.path.count).max() ?? 0
    let sizeWidth = lines.map { $0.fields[0].count }.max() ?? 0
    func padded(_ text: String, _ width: Int) -> String {
      text + String(repeating: " ", count: max(0, width - text.count))
    }
    return lines.map { line in
      let rest =
        line.refusal
        ?? [
          padded(line.fields[0], sizeWidth), padded(line.fields[1], 19),
          padded(Self.stars(line.fields[3]), 8), line.fields[2],
        ]
        .joined(separator: "  ")
      return padded(line.path, pathWidth) + "  " + rest
    }
  }
}
