import Foundation
import TesseraPhotoFormats
import TesseraUtilities

/// What Tessera learnt from local photos' headers (pixel size, date taken, camera,
/// orientation, a video's duration), kept on disk a file per folder, so a second look at a folder has every
/// photo's date at once: no header is read again, no photo moves after the first screen.
///
/// A fact is used only while its file keeps the size and modification time it had when its
/// header was read, and its XMP sidecar (`XMPSidecar`) is the one it was read with, of the
/// same size and modification time: a culling tool that rates a photo rewrites its sidecar. The files are a cache of this user's (`0700` folder, `0600` files,
/// written through `PrivateFileWrite`); they are still read as untrusted input: every number
/// is validated, a line that does not parse is skipped, and a file larger than `maxFileBytes`
/// or naming another folder is ignored.
///
/// A file of another format (an older Tessera's, before an upgrade) is not read: its folder's
/// headers are read again and the file rewritten in this format. That is said once, by
/// `log` (by default a line on standard error, which the gallery sends to its log file):
/// "photo facts: <file> is format 11, this Tessera writes 12; reading that folder's headers
/// again". A closure rather than swift-log: the fuzz harnesses compile this file into a module
/// of their own, where no package can be imported.
///
/// - Complexity: reading or writing a folder's facts is O(its photos).
public struct PhotoFactsStore: Sendable {
  /// Where the files are.
  public let directory: URL

  /// The format of the files written; a reader that changes what it reads from a header
  /// changes it, so facts an older reader gathered are read afresh.
  static let format = 13

  /// The first line of every file, naming `format`.
  static let formatLine = "\(formatPrefix)\(format)"
  static let formatPrefix = "tessera-photo-facts "

  /// Where a file of another format is reported: a line for the log, without its newline.
  public let log: @Sendable (String) -> Void

  /// The largest facts file read: `FeedLimits.maxFolderEntries` photos of ~300 bytes.
  static let maxFileBytes = 32 << 20

  public init(
    directory: URL = PhotoFactsStore.defaultDirectory,
    log: @escaping @Sendable (String) -> Void = PhotoFactsStore.standardError
  ) {
    self.directory = directory
    self.log = log
  }

  /// The default `log`: the line on standard error, after "tessera: ".
  public static let standardError: @Sendable (String) -> Void = { line in
    FileHandle.standardError.write(Data("tessera: \(line)\n".utf8))
  }

  /// `$XDG_CACHE_HOME/tessera/photo-facts` when that variable is an absolute path, else
  /// `~/.cache/tessera/photo-facts`.
  public static var defaultDirectory: URL {
    CacheHome.url.appendingPathComponent("tessera/photo-facts", isDirectory: true)
  }

  /// One photo's facts, with what identifies the file they were read from.
  public struct Entry: Equatable, Sendable {
    public var name: String
    public var size: Int
    public var modified: Date
    public var header: PhotoHeader
    /// The sidecar the header's culling was read from; nil for a photo without one.
    public var sidecar: XMPSidecar?

    public init(
      name: String, size: Int, modified: Date, header: PhotoHeader, sidecar: XMPSidecar? = nil
    ) {
      self.name = name
      self.size = size
      self.modified = modified
      self.header = header
      self.sidecar = sidecar
    }
  }

  /// The facts of one folder, by file name.
  public struct Folder: Sendable {
    var entries: [String: Entry] = [:]

    /// The header of `file` when its facts are known and the file has not changed since.
    /// O(1).
    public func header(of file: WalkedFile) -> PhotoHeader? {
      guard let entry = entries[file.name], entry.size == file.size,
        entry.modified == file.modified, entry.sidecar == file.sidecar
      else { return nil }
      return entry.header
    }

    public var count: Int { entries.count }
  }

  /// The facts stored for `folder` (a path as the walk gives it); empty when there are none
  /// or the file cannot be trusted. Blocking.
  public func facts(ofFolder folder: String) -> Folder {
    let file = url(ofFolder: folder)
    let read = SafeFileRead.contents(path: file.path, maxFileSize: Self.maxFileBytes)
    guard case .success(let contents) = read else { return Folder() }
    if let other = Self.otherFormat(of: contents.bytes) {
      log(
        "photo facts: \(file.path) is format \(other), this Tessera writes \(Self.format);"
          + " reading that folder's headers again")
      return Folder()
    }
    return Self.parse(contents.bytes, folder: folder)
  }

  /// Replaces the facts stored for `folder` with `entries`. Blocking.
  package func store(
    _ entries: [Entry], ofFolder folder: String
  ) throws(PrivateFileWrite.Failure) {
    try PrivateFileWrite.replace(
      url(ofFolder: folder), with: Self.encode(entries, folder: folder),
      temporarySuffix: ".facts")
  }

  func url(ofFolder folder: String) -> URL {
    directory.appendingPathComponent(StableHash.wideHex(folder) + ".facts")
  }

  // MARK: format
  // Line 1 `formatLine`, line 2 the folder, then a line a photo, fields split by tabs:
  // size, modification time (the Double's bits in hex, so it compares exactly), width,
  // height, orientation, seconds taken on the wall clock, a video's duration in milliseconds,
  // "a" for an animation, the EXIF rating, the sidecar's rating (-1…5) and label
  // (`PhotoCulling.Label`'s number), the sidecar's size, modification time (as the photo's)
  // and name, a motion photo's appended video's start and length in bytes, the sidecar's tags
  // (joined by LF before escaping) and title, model, name.
  // Empty means unknown (or, for "a", a still picture; for the video, none);
  // text fields escape `%`, tab, CR and LF as `%XX`.

  static func encode(_ entries: [Entry], folder: String) -> Data {
    var text = formatLine + "\n" + escape(folder) + "\n"
    for entry in entries.prefix(FeedLimits.maxFolderEntries) {
      let header = entry.header
      let fields: [String] = [
        String(entry.size),
        String(entry.modified.timeIntervalSince1970.bitPattern, radix: 16),
        header.pixelSize.map { String($0.width) } ?? "",
        header.pixelSize.map { String($0.height) } ?? "",
        header.exif?.orientation.map { String($0) } ?? "",
        header.exif?.taken.map { String($0.seconds) } ?? "",
        header.duration.map { String(Int(clamping: $0 * 1_000, to: 0...maxDurationMilliseconds)) }
          ?? "",
        header.isAnimated ? "a" : "",
        header.exif?.rating.map { String($0) } ?? "",
        header.culling?.rating.map { String($0) } ?? "",
        header.culling?.label.map { String($0.rawValue) } ?? "",
        entry.sidecar.map { String($0.size) } ?? "",
        entry.sidecar.map { String($0.modified.timeIntervalSince1970.bitPattern, radix: 16) } ?? "",
        escape(entry.sidecar?.name ?? ""),
        header.appendedMotion.map { String($0.lowerBound) } ?? "",
        header.appendedMotion.map { String($0.count) } ?? "",
        escape((header.culling?.tags ?? []).joined(separator: "\n")),
        escape(header.culling?.title ?? ""),
        escape(header.exif?.model ?? ""),
        escape(entry.name),
      ]
      text += fields.joined(separator: "\t") + "\n"
    }
    return Data(text.utf8)
  }

  /// The format a facts file names on its first line when it is not `format`: at most nine
  /// digits after `formatPrefix`. Nil for this format, and for a first line of anything else.
  static func otherFormat(of data: Data) -> Int? {
    let prefix = Data(formatPrefix.utf8)
    guard data.starts(with: prefix) else { return nil }
    let digits = data.dropFirst(prefix.count).prefix { $0 != 0x0A }
    guard (1...9).contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) }),
      let number = Int(String(decoding: digits, as: UTF8.self)), number != format
    else { return nil }
    return number
  }

  static func parse(_ data: Data, folder: String) -> Folder {
    var lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)[...]
    guard lines.popFirst().map({ String(decoding: $0, as: UTF8.self) }) == formatLine,
      lines.popFirst().flatMap({ unescape(String(decoding: $0, as: UTF8.self)) }) == folder
    else { return Folder() }
    var folderFacts = Folder()
    for line in lines.prefix(FeedLimits.maxFolderEntries) {
      if let entry = entry(String(decoding: line, as: UTF8.self)) {
        folderFacts.entries[entry.name] = entry
      }
    }
    return folderFacts
  }

  private static func entry(_ line: String) -> Entry? {
    let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    guard fields.count == 20,
      let size = plainNumber(fields[0], limit: FeedLimits.maxLocalVideoBytes),
      let bits = UInt64(fields[1], radix: 16),
      case let seconds = Double(bitPattern: bits), seconds.isFinite,
      fields[7] == "" || fields[7] == "a",
      let name = unescape(fields[19]), !name.isEmpty, !name.contains("/"),
      let model = unescape(fields[18]), model.utf8.count <= FeedLimits.maxExifText,
      let title = unescape(fields[17]),
      let tagText = unescape(fields[16]),
      let sidecarName = unescape(fields[13]), !sidecarName.contains("/")
    else { return nil }
    var header = PhotoHeader()
    if !fields[2].isEmpty || !fields[3].isEmpty {
      guard let width = plainNumber(fields[2], limit: FeedLimits.maxImageSide),
        let height = plainNumber(fields[3], limit: FeedLimits.maxImageSide),
        let size = PixelSize(validatingWidth: width, height: height)
      else { return nil }
      header.pixelSize = size
    }
    var exif = ExifFacts(model: model.isEmpty ? nil : model)
    if !fields[4].isEmpty {
      guard let orientation = plainNumber(fields[4], limit: 8), orientation >= 1 else {
        return nil
      }
      exif.orientation = orientation
    }
    if !fields[5].isEmpty {
      guard let taken = Int64(fields[5]),
        (-WallClockTime.secondsLimit...WallClockTime.secondsLimit).contains(Int(taken))
      else {
        return nil
      }
      exif.taken = WallClockTime(seconds: taken)
    }
    if !fields[8].isEmpty {
      guard let rating = plainNumber(fields[8], limit: 5) else { return nil }
      exif.rating = rating
    }
    header.exif = exif == ExifFacts() ? nil : exif
    if !fields[6].isEmpty {
      guard let milliseconds = plainNumber(fields[6], limit: maxDurationMilliseconds),
        let duration = VideoFacts.duration(seconds: Double(milliseconds) / 1_000)
      else { return nil }
      header.duration = duration
    }
    header.isAnimated = fields[7] == "a"
    if !fields[14].isEmpty || !fields[15].isEmpty {
      // Checked as the header reader checks it: inside the file of the size this line names.
      guard let start = plainNumber(fields[14], limit: size),
        let length = plainNumber(fields[15], limit: size),
        let range = JPEGMotionPhoto.validated(start: start, length: length, fileSize: size)
      else { return nil }
      header.appendedMotion = range
    }
    var sidecar: XMPSidecar?
    if !sidecarName.isEmpty {
      guard let sidecarSize = plainNumber(fields[11], limit: Int.max),
        let bits = UInt64(fields[12], radix: 16),
        case let sidecarSeconds = Double(bitPattern: bits), sidecarSeconds.isFinite
      else { return nil }
      sidecar = XMPSidecar(
        name: sidecarName, size: sidecarSize,
        modified: Date(timeIntervalSince1970: sidecarSeconds))
    }
    if !fields[9].isEmpty || !fields[10].isEmpty || !tagText.isEmpty || !title.isEmpty {
      // A rejection or a rating of the culling is a sidecar's alone: the file's own rating
      // is EXIF's field (8). A label, tags and a title may be the file's (`ExifFacts.decided`).
      guard sidecar != nil || fields[9].isEmpty else { return nil }
      let tags = tagText.isEmpty ? [] : tagText.split(separator: "\n").map(String.init)
      guard tags.count <= PhotoCulling.maxTags,
        tags.allSatisfy({ $0.unicodeScalars.count <= XMPCulling.maxTextScalars }),
        title.unicodeScalars.count <= XMPCulling.maxTextScalars
      else { return nil }
      var culling = PhotoCulling(tags: tags, title: title.isEmpty ? nil : title)
      if !fields[9].isEmpty {
        let text = fields[9]
        let negative = text == "-1"
        guard negative || plainNumber(text, limit: 5) != nil else { return nil }
        culling.rating = negative ? -1 : Int(text)
      }
      if !fields[10].isEmpty {
        guard let code = plainNumber(fields[10], limit: Int(UInt8.max)),
          let label = PhotoCulling.Label(rawValue: UInt8(code))
        else { return nil }
        culling.label = label
      }
      header.culling = culling
    }
    return Entry(
      name: name, size: size, modified: Date(timeIntervalSince1970: seconds), header: header,
      sidecar: sidecar)
  }

  /// The longest duration a line may hold: `VideoFacts.maxDuration`.
  static let maxDurationMilliseconds = Int(VideoFacts.maxDuration) * 1_000

  /// Decimal digits only (no sign, no spaces), at most `limit`.
  private static func plainNumber(_ text: String, limit: Int) -> Int? {
    guard !text.isEmpty, text.utf8.count <= 19,
      text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
      let value = Int(text), value <= limit
    else { return nil }
    return value
  }

  static func escape(_ text: String) -> String {
    var escaped = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "%": escaped += "%25"
      case "\t": escaped += "%09"
      case "\n": escaped += "%0A"
      case "\r": escaped += "%0D"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }

  /// The text `escape` made; nil for a `%` not followed by one of the four escapes.
  static func unescape(_ text: String) -> String? {
    guard text.contains("%") else { return text }
    var result = ""
    var scalars = text.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
      guard scalar == "%" else {
        result.unicodeScalars.append(scalar)
        continue
      }
      var code = ""
      if let first = scalars.next() { code.unicodeScalars.append(first) }
      if let second = scalars.next() { code.unicodeScalars.append(second) }
      switch code {
      case "25": result += "%"
      case "09": result += "\t"
      case "0A": result += "\n"
      case "0D": result += "\r"
      default: return nil
      }
    }
    return result
  }
}
