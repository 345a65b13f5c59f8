import Foundation
import TesseraUtilities

/// What a `.trashinfo` file says: where a trashed file came from and when it was trashed. It is
/// the only record of the original place (the name in `files/` may differ), and other
/// programs write these files too, so a read one is outside input: the read is capped at
/// `maxFileSize` bytes and refuses links and non-files, and a file whose first line is not
/// `[Trash Info]`, that lacks `Path` or `DeletionDate`, or whose values do not parse is
/// refused with a reason rather than half used.
///
/// The format (freedesktop.org Trash specification 1.0): the line `[Trash Info]`, then
/// `Path=` with the original path's bytes percent-encoded as in URLs (RFC 2396 section 2; `/`
/// stays), and `DeletionDate=YYYY-MM-DDThh:mm:ss` in local time with no zone. Other lines,
/// and later repeats of either key, are ignored, as the specification asks.
///
/// - Complexity: reading, parsing and writing are O(file size).
public struct TrashInfo: Sendable, Equatable {
  /// The `Path` value, percent-decoded: an absolute path, or one relative to the top
  /// directory of the file system whose trash holds the entry.
  public let path: String
  /// The `DeletionDate` value as written: `YYYY-MM-DDThh:mm:ss` (or the specification's own
  /// example's `YYYYMMDDThh:mm:ss`), the trasher's local time.
  public let deletionDate: String

  init(path: String, deletionDate: String) {
    self.path = path
    self.deletionDate = deletionDate
  }

  /// The largest info file read. A `Path` of `PATH_MAX` (4,096) bytes is at most 12,288
  /// encoded; a file 5 times that is no trash entry.
  public static let maxFileSize = 64 << 10

  static let header = "[Trash Info]"

  /// The info file at `infoPath`, read and checked.
  ///
  /// Blocking I/O: call it off the cooperative pool.
  public static func read(_ infoPath: String) throws(TrashError) -> TrashInfo {
    switch SafeFileRead.contents(path: infoPath, maxFileSize: maxFileSize) {
    case .success(let contents):
      do {
        return try parse(contents.bytes)
      } catch {
        throw .invalidInfo(path: infoPath, reason: error.reason)
      }
    case .failure(let refusal):
      throw .invalidInfo(path: infoPath, reason: reason(refusal))
    }
  }

  /// When the file was trashed, taking `DeletionDate` as a wall-clock time in `timeZone`; nil
  /// for a time that calendar does not have.
  public func deletionDate(in timeZone: TimeZone) -> Date? {
    guard let parts = Self.dateParts(deletionDate) else { return nil }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    return calendar.date(
      from: DateComponents(
        year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4],
        second: parts[5]))
  }

  /// Why an info file's bytes are not a trash entry.
  struct Malformed: Error {
    var reason: String
  }

  /// The entry the bytes of an info file describe.
  static func parse(_ bytes: Data) throws(Malformed) -> TrashInfo {
    var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .makeIterator()
    guard let first = lines.next(), trimmedCarriageReturn(first).elementsEqual(header.utf8)
    else { throw Malformed(reason: "its first line is not \(header)") }
    var pathValue: Data.SubSequence?
    var dateValue: Data.SubSequence?
    while let raw = lines.next() {
      let line = trimmedCarriageReturn(raw)
      // The next group ends this one; its keys are not the entry's.
      if line.first == UInt8(ascii: "[") { break }
      guard let equals = line.firstIndex(of: UInt8(ascii: "=")) else { continue }
      let key = trimmedSpaces(line[..<equals])
      let value = trimmedSpaces(line[line.index(after: equals)...])
      if key.elementsEqual("Path".utf8), pathValue == nil { pathValue = value }
      if key.elementsEqual("DeletionDate".utf8), dateValue == nil { dateValue = value }
    }
    guard let pathValue else { throw Malformed(reason: "it has no Path") }
    guard let dateValue else { throw Malformed(reason: "it has no DeletionDate") }
    guard let path = percentDecoded(pathValue) else {
      throw Malformed(reason: "its Path is not a percent-encoded path")
    }
    guard !path.isEmpty, !path.utf8.contains(0) else {
      throw Malformed(reason: "its Path is empty or holds a NUL")
    }
    guard !path.split(separator: "/").contains("..") else {
      throw Malformed(reason: "its Path contains a .. folder")
    }
    let date = String(decoding: dateValue, as: UTF8.self)
    guard dateParts(date) != nil else {
      throw Malformed(reason: "its DeletionDate is not a YYYY-MM-DDThh:mm:ss date")
    }
    return TrashInfo(path: path, deletionDate: date)
  }

  /// The text of the info file, `Path` percent-encoded.
  var contents: String {
    "\(Self.header)\nPath=\(Self.percentEncoded(path))\nDeletionDate=\(deletionDate)\n"
  }

  /// `date` as a `DeletionDate`: the wall-clock time in `timeZone`, no zone written.
  static func deletionDate(_ date: Date, in timeZone: TimeZone) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let parts = calendar.dateComponents(
      [.year, .month, .day, .hour, .minute, .second], from: date)
    func padded(_ value: Int?, _ width: Int) -> String {
      let digits = String(value ?? 0)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "\(padded(parts.year, 4))-\(padded(parts.month, 2))-\(padded(parts.day, 2))"
      + "T\(padded(parts.hour, 2)):\(padded(parts.minute, 2)):\(padded(parts.second, 2))"
  }

  /// Year, month, day, hour, minute, second of a `DeletionDate`, each in its range; nil when
  /// the text is neither `YYYY-MM-DDThh:mm:ss` nor `YYYYMMDDThh:mm:ss`.
  static func dateParts(_ text: String) -> [Int]? {
    let bytes = Array(text.utf8)
    let layout: [(offset: Int, width: Int)]
    switch bytes.count {
    case 19 where bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-"):
      layout = [(0, 4), (5, 2), (8, 2), (11, 2), (14, 2), (17, 2)]
    case 17:
      layout = [(0, 4), (4, 2), (6, 2), (9, 2), (12, 2), (15, 2)]
    default: return nil
    }
    let time = bytes.count - 9  // where "T" stands
    guard bytes[time] == UInt8(ascii: "T"), bytes[time + 3] == UInt8(ascii: ":"),
      bytes[time + 6] == UInt8(ascii: ":")
    else { return nil }
    var parts: [Int] = []
    for (offset, width) in layout {
      var value = 0
      for byte in bytes[offset..<offset + width] {
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      parts.append(value)
    }
    guard (1...12).contains(parts[1]),
      (1...CivilCalendar.daysIn(month: parts[1], year: parts[0])).contains(parts[2]),
      parts[3] < 24, parts[4] < 60, parts[5] < 61  // 60: a leap second
    else { return nil }
    return parts
  }

  /// The path's bytes (`FileSystemName`: a name that is not UTF-8 keeps its own) with all but ASCII letters, digits, `-._~` and `/` as `%XX`: the
  /// RFC 2396 escaping the specification asks for, and byte for byte what GLib's `gio trash`
  /// writes (RFC 2396's other unreserved marks `!*'()` are escaped too, which it allows).
  static func percentEncoded(_ path: String) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var encoded: [UInt8] = []
    let bytes = FileSystemName.bytes(of: path)
    encoded.reserveCapacity(bytes.count)
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
        encoded.append(byte)
      default:
        encoded += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
      }
    }
    return String(decoding: encoded, as: UTF8.self)
  }

  /// The bytes with every `%XX` replaced by its byte, as a path (`FileSystemName`: bytes that
  /// are not UTF-8 are kept, as GLib writes them for such a name); nil when a `%` is not
  /// followed by two hex digits. (Not form decoding: `+` stays.)
  static func percentDecoded<Bytes: Collection<UInt8>>(_ text: Bytes) -> String? {
    var decoded: [UInt8] = []
    decoded.reserveCapacity(text.count)
    var iterator = text.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        decoded.append(byte)
        continue
      }
      guard let high = iterator.next().flatMap(hexValue),
        let low = iterator.next().flatMap(hexValue)
      else { return nil }
      decoded.append(high << 4 | low)
    }
    return FileSystemName.string(decoded)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  private static func trimmedCarriageReturn(_ line: Data.SubSequence) -> Data.SubSequence {
    line.last == UInt8(ascii: "\r") ? line.dropLast() : line
  }

  /// Without the spaces and tabs around it, which the Desktop Entry format ignores around
  /// `=`.
  private static func trimmedSpaces(_ text: Data.SubSequence) -> Data.SubSequence {
    let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    guard let start = text.firstIndex(where: { !blank($0) }),
      let end = text.lastIndex(where: { !blank($0) })
    else { return text[text.endIndex...] }
    return text[start...end]
  }

  private static func reason(_ refusal: SafeFileRead.Refusal) -> String {
    switch refusal {
    case .symbolicLink: "it is a symbolic link"
    case .notFound: "it does not exist"
    case .notRegularFile(let kind): "it is \(kind), not a file"
    case .tooLarge(let size, let limit):
      "it is \(size) bytes long, more than the \(limit) a trash entry may be"
    case .unreadable(let why): why
    }
  }
}
