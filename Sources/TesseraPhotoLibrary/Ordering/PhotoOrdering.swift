import Foundation
import TesseraPhotoFormats

/// What a local photo is sorted by.
public enum PhotoSort: String, CaseIterable, Sendable {
  /// The date taken (EXIF DateTimeOriginal), or the modification time when there is none.
  case taken
  /// The file's modification time.
  case modified
  /// The file name, then the path.
  case name
  /// The rating that counts (the sidecar's, else the camera's), five stars first, unrated
  /// after one star and rejected last; then the date taken, as `taken`. Headers name the
  /// stars.
  case rating
  /// The order the files were given in (`tessera -i`: standard input's lines), with no
  /// headers.
  case given
}

/// How sorted photos are grouped under headers.
public enum PhotoGrouping: String, CaseIterable, Sendable {
  case day
  case month
  case none
}

/// One header and the photos under it: `range` indexes the display order.
public struct PhotoSection: Equatable, Sendable {
  public var title: String
  public var range: Range<Int>

  public init(title: String, range: Range<Int>) {
    self.title = title
    self.range = range
  }
}

/// A photo of a local walk, with what is known of it so far.
///
/// Made when asked (`PhotoCatalog.photo(at:)`, which holds the walk's photos as records): a
/// value with its fields in one immutable allocation, so copies share it. Setting a field
/// makes a new allocation.
public struct LocalPhoto: Sendable, Equatable {
  private final class Storage: Sendable {
    let file: WalkedFile
    let modified: WallClockTime
    let header: PhotoHeader?
    let headerRead: Bool

    init(file: WalkedFile, modified: WallClockTime, header: PhotoHeader?, headerRead: Bool) {
      self.file = file
      self.modified = modified
      self.header = header
      self.headerRead = headerRead
    }
  }

  private var storage: Storage

  public init(file: WalkedFile, header: PhotoHeader? = nil, zone: TimeZone = .current) {
    storage = Storage(
      file: file, modified: WallClockTime(file.modified, in: zone), header: header,
      headerRead: header != nil)
  }

  /// With the wall-clock time already worked out (a time zone look-up).
  init(file: WalkedFile, modified: WallClockTime, header: PhotoHeader?) {
    storage = Storage(file: file, modified: modified, header: header, headerRead: header != nil)
  }

  public var file: WalkedFile {
    get { storage.file }
    set {
      storage = Storage(file: newValue, modified: modified, header: header, headerRead: headerRead)
    }
  }

  /// The modification time on the local wall clock.
  public var modified: WallClockTime {
    get { storage.modified }
    set {
      storage = Storage(file: file, modified: newValue, header: header, headerRead: headerRead)
    }
  }

  /// Nil until the header is read (the walk only `stat`s).
  public var header: PhotoHeader? {
    get { storage.header }
    set {
      storage = Storage(file: file, modified: modified, header: newValue, headerRead: headerRead)
    }
  }

  /// Whether the header was looked at (a file without EXIF stays `header?.exif == nil`).
  public var headerRead: Bool {
    get { storage.headerRead }
    set { storage = Storage(file: file, modified: modified, header: header, headerRead: newValue) }
  }

  /// The same photo with its header read: one allocation, where setting `header` and
  /// `headerRead` makes two.
  public func reading(_ header: PhotoHeader) -> LocalPhoto {
    var read = self
    read.storage = Storage(file: file, modified: modified, header: header, headerRead: true)
    return read
  }

  /// The date taken when EXIF says, else the modification time.
  public var taken: WallClockTime { header?.exif?.taken ?? modified }

  public static func == (lhs: LocalPhoto, rhs: LocalPhoto) -> Bool {
    lhs.storage === rhs.storage
      || (lhs.file == rhs.file && lhs.modified == rhs.modified && lhs.header == rhs.header
        && lhs.headerRead == rhs.headerRead)
  }
}

/// The order and sections of local photos: newest first by default; `reverse` turns it.
/// Sorting is by an integer key (no date objects), ties by folder, then name, so the order is
/// total and the same on every run (`PhotoCatalog.merge`).
public struct PhotoOrdering: Sendable, Equatable {
  public var sort: PhotoSort
  public var reverse: Bool
  public var grouping: PhotoGrouping

  public init(sort: PhotoSort = .taken, reverse: Bool = false, grouping: PhotoGrouping = .month) {
    self.sort = sort
    self.reverse = reverse
    self.grouping = sort == .name || sort == .given ? .none : grouping
  }

  /// Headers for photos in `order`: one per day or month their keys (the seconds each
  /// sorts by) change on.
  /// - Complexity: O(n), integer arithmetic per photo.
  func sections(of order: [Int], key: (Int) -> Int64) -> [PhotoSection] {
    guard grouping != .none, sort != .name, sort != .given, !order.isEmpty else { return [] }
    if sort == .rating { return Self.ratingSections(of: order, rating: key) }
    func time(_ index: Int) -> WallClockTime { WallClockTime(seconds: key(index)) }
    func group(_ index: Int) -> Int { grouping == .day ? time(index).day : time(index).month }
    func title(_ index: Int) -> String {
      grouping == .day ? time(index).dayTitle : time(index).monthTitle
    }
    var sections: [PhotoSection] = []
    var start = 0
    var current = group(order[0])
    for position in 1..<order.count {
      let next = group(order[position])
      guard next != current else { continue }
      sections.append(PhotoSection(title: title(order[start]), range: start..<position))
      start = position
      current = next
    }
    sections.append(PhotoSection(title: title(order[start]), range: start..<order.count))
    return sections
  }
}

extension PhotoOrdering {
  /// One header per rating, for `--sort rating`: "★★★★★", …, "no stars", "rejected".
  /// - Complexity: O(n).
  static func ratingSections(of order: [Int], rating: (Int) -> Int64) -> [PhotoSection] {
    var sections: [PhotoSection] = []
    var start = 0
    for position in order.indices
    where position == order.count - 1
      || rating(order[position]) != rating(order[position + 1])
    {
      sections.append(
        PhotoSection(
          title: ratingTitle(Int(rating(order[position]))), range: start..<(position + 1)))
      start = position + 1
    }
    return sections
  }

  /// "★★★", "no stars" (0), "rejected" (−1).
  static func ratingTitle(_ rating: Int) -> String {
    switch rating {
    case ...(-1): "rejected"
    case 0: "no stars"
    default: String(repeating: "★", count: min(rating, 5))
    }
  }
}
