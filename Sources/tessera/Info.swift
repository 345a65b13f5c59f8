import ArgumentParser
import TesseraPhotoLibrary

/// `tessera info FILE…`: what the gallery reads from each file's header. It reads through
/// `LocalPhotoHeaderReader`, the gallery's own reader, so a photo that sorts oddly can be asked
/// why, and a script can measure which files the gallery dates (scripts/date-coverage.sh).
struct Info: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract:
      "Print each file's pixel size, date taken, rating and camera, as the gallery reads them.",
    discussion: """
      One line a file: its path, its pixel size as shown (WxH), the date taken \
      (YYYY-MM-DD HH:MM:SS, the camera's clock, no time zone), the rating that counts (its \
      XMP sidecar's, else the file's own XMP or EXIF rating; shown as stars) and the camera \
      model, each "-" when the file does not tell it. The date is the one the gallery sorts \
      by: EXIF's, else XMP's, else IPTC's. A file that can't be read says why instead. With \
      --tsv the six fields (path, size, date, model, rating as -1 rejected or 0 to 5, why not \
      read) are separated by tabs; \
      control characters in a path are shown as "?". Exit status 1 when any file could not \
      be read.
      """
  )

  @Argument(help: "Image files.", completion: .file())
  var files: [String]
  @Flag(help: "Tab-separated fields, for cut and awk.")
  var tsv = false

  func run() throws {
    let reader = LocalPhotoHeaderReader()
    let lines = files.map { InfoLine(path: $0, reader: reader) }
    for line in tsv ? lines.map(\.tabSeparated) : InfoLine.aligned(lines) {
      print(line)
    }
    if lines.contains(where: { $0.refusal != nil }) { throw ExitCode(1) }
  }
}
