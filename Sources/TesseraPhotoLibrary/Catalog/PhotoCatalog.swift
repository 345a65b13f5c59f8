import Foundation
import TesseraPhotoFormats
import TesseraUtilities

/// Every photo of a walk as a fixed-size record in a `PagedArray`: no allocation of its own
/// per photo. The variable-length part (the path, the camera model) is in `DiskBackedStrings`, in
/// the page cache rather than the process; a `LocalPhoto` is made when asked, for the few dozen
/// photos a screen shows. Folders, each named once, stay in memory: a walk has a folder for
/// every ~250 photos.
///
/// Thread-safe (one lock): the library writes from the main actor, a gallery's items read
/// from wherever they are drawn.
///
/// - Complexity: `append`, `setHeader`, the accessors O(1) (plus one `pread` of the path
///   where it is read); memory 88 bytes a photo, rounded up to a page of 4,096 records,
///   and a dictionary entry for each photo with an XMP sidecar, tags or a title, or an appended motion
///   video (`tessera bench library`).
public final class PhotoCatalog: Sendable {
  /// One photo. Fields that may be absent are flagged in `flags`.
  struct Record {
    var pathOffset: Int
    var size: Int
    var modifiedSince1970: Double
    var modified: Int64
    var taken: Int64 = 0
    /// The path's `hashValue` (seeded per process: no file name can be made to collide).
    var pathHash: Int
    /// The name's first 8 UTF-8 bytes, big-endian: most name comparisons end here.
    var nameKey: UInt64
    var pathLength: Int32
    var folder: Int32
    /// Index into the catalog's camera models (with `.model`).
    var model: Int32 = 0
    var width: Int32 = 0
    var height: Int32 = 0
    /// The name's place among the names of its `run` (the files one folder listing gave),
    /// so photos of one folder are ordered by name without reading a name back.
    var nameRank: Int32
    var run: Int32
    var nameLength: UInt16
    var orientation: Int8 = 0
    var flags: Flags = []
    /// The RAW beside it (`WalkedFile.rawCompanion`): its extension's `RAWPairing` code, 0
    /// for none; its stem is the photo's.
    var rawCompanion: UInt8 = 0
    /// Two ratings in a byte: the low four bits the sidecar's plus two (1 rejected, 2
    /// unrated, 3…7 one to five stars), the high four the camera's EXIF rating plus one; 0
    /// for none. With `label` (`PhotoCulling.Label`'s raw value, 0 for none) they sit in the
    /// padding after `rawCompanion` too.
    var ratings: UInt8 = 0
    var label: UInt8 = 0
    /// The Live Photo's video beside it (`WalkedFile.motionCompanion`): its extension's
    /// `MotionPairing` code, 0 for none; its stem is the photo's. In the last byte of padding
    /// before `duration`.
    var motionCompanion: UInt8 = 0

    var culledRating: Int? { ratings & 0x0F == 0 ? nil : Int(ratings & 0x0F) - 2 }
    var exifRating: Int? { ratings >> 4 == 0 ? nil : Int(ratings >> 4) - 1 }

    static func ratings(culled: Int?, exif: Int?) -> UInt8 {
      let low = culled.flatMap { (-1...5).contains($0) ? UInt8($0 + 2) : nil } ?? 0
      let high = exif.flatMap { (0...5).contains($0) ? UInt8($0 + 1) : nil } ?? 0
      return high << 4 | low
    }
    /// A video's duration in hundredths of a second (`VideoFacts` keeps no finer, and 100
    /// days fit 32 bits), 0 for none. It sits in the padding after `rawCompanion`: the
    /// record's stride stays 96 bytes.
    var duration: UInt32 = 0

    struct Flags: OptionSet {
      let rawValue: UInt8
      static let headerRead = Flags(rawValue: 1)
      static let animated = Flags(rawValue: 2)
      static let exif = Flags(rawValue: 4)
      static let taken = Flags(rawValue: 8)
      static let pixelSize = Flags(rawValue: 16)
      static let model = Flags(rawValue: 32)
      /// An earlier photo's path has the same hash.
      static let sharesHash = Flags(rawValue: 64)
    }

    /// The seconds `sort` orders by (unused for `.name`); for `.rating`, the date taken, its
    /// tie-break after ``rating``.
    func key(_ sort: PhotoSort) -> Int64 {
      (sort == .taken || sort == .rating) && flags.contains(.taken) ? taken : modified
    }

    /// The rating that counts: the sidecar's, else the camera's; 0 unrated, −1 rejected.
    var rating: Int { culledRating ?? exifRating ?? 0 }
  }

  private struct State {
    var records = PagedArray<Record>()
    var strings: DiskBackedStrings
    /// Where each camera model is written, and the first `sharedModels` distinct ones by
    /// name (a model past them is written again for each photo that has it).
    var models: [DiskBackedStrings.Location] = []
    var modelIndex: [String: Int32] = [:]
    var folders: [String] = []
    var folderIndex: [String: Int32] = [:]
    /// Each path's hash to the first photo with it, and paths whose hash an earlier photo
    /// had: no path is held in memory to find a photo by its path.
    var indexByPathHash: [Int: Int32] = [:]
    var indexBySharedHashPath: [String: Int] = [:]
    /// Names read back for comparisons that their first 8 bytes did not decide.
    var names: [Int: [UInt8]] = [:]
    var namesReadBack = 0
    /// The sidecars of the photos that have one (most have none: no room in every record).
    var sidecars: [Int: XMPSidecar] = [:]
    /// Where a motion photo's appended video lies (`PhotoHeader.appendedMotion`), for the
    /// photos whose header said so: few do, so no room in every record either.
    var appendedMotion: [Int: Range<Int>] = [:]
    /// The tags and title of the photos whose sidecar names some (`PhotoCulling.tags`,
    /// `title`): few do.
    var words: [Int: SidecarWords] = [:]
  }

  /// Distinct camera models written once; past this many each photo's is written on its own.
  static let sharedModels = 256
  /// Names read back and kept for comparisons; the table is emptied when full.
  static let cachedNames = 4096

  private let state: Locked<State>

  /// How a path's hash is made: its `hashValue`, seeded per process. A test gives every path
  /// one hash, to see what a collision does.
  private let hashPath: @Sendable (String) -> Int

  public convenience init() {
    self.init(hashingPathsWith: { $0.hashValue })
  }

  init(hashingPathsWith hash: @escaping @Sendable (String) -> Int) {
    state = Locked(State(strings: DiskBackedStrings()))
    hashPath = hash
  }

  public var count: Int { state.withLock { $0.records.count } }

  /// Whether the paths are on disk (false: no file could be made, they are in memory).
  var isOnDisk: Bool { state.withLock { $0.strings.isOnDisk } }

  /// Bytes of paths and camera models stored.
  var stringBytes: Int { state.withLock { $0.strings.count } }

  /// Names read back for comparisons so far.
  var namesReadBack: Int { state.withLock { $0.namesReadBack } }

  /// Adds a photo and returns its index, its lasting number; nil when a photo with its
  /// path is here already (two arguments naming one folder). `nameRank` is its name's place
  /// among the names of `run`, files of one folder given together (`nameRanks(of:)`).
  /// O(path length), and one `pread` when another photo's path has the same hash.
  func append(
    _ file: WalkedFile, folder: String, modified: WallClockTime, header: PhotoHeader?,
    nameRank: Int, run: Int
  ) -> Int? {
    state.withLock { state in
      let hash = hashPath(file.path)
      var sharesHash = false
      if let first = state.indexByPathHash[hash] {
        if state.indexBySharedHashPath[file.path] != nil
          || Self.path(Int(first), state) == file.path
        {
          return nil
        }
        sharesHash = true
        state.indexBySharedHashPath[file.path] = state.records.count
      } else {
        state.indexByPathHash[hash] = Int32(clamping: state.records.count)
      }
      let location = state.strings.append(file.path)
      let name = file.nameSlice.utf8
      let folderNumber: Int32
      if let known = state.folderIndex[folder] {
        folderNumber = known
      } else {
        folderNumber = Int32(clamping: state.folders.count)
        state.folders.append(folder)
        state.folderIndex[folder] = folderNumber
      }
      var record = Record(
        pathOffset: location.offset, size: max(0, file.size),
        modifiedSince1970: file.modified.timeIntervalSince1970, modified: modified.seconds,
        pathHash: hash, nameKey: Self.nameKey(name), pathLength: Int32(clamping: location.length),
        folder: folderNumber, nameRank: Int32(clamping: nameRank), run: Int32(clamping: run),
        nameLength: UInt16(clamping: name.count))
      if let header { Self.set(header, on: &record, at: state.records.count, in: &state) }
      if sharesHash { record.flags.insert(.sharesHash) }
      if let companion = file.rawCompanion, let dot = companion.lastIndex(of: ".") {
        record.rawCompanion = RAWPairing.code(
          ofExtension: companion[companion.index(after: dot)...])
      }
      if let companion = file.motionCompanion, let dot = companion.lastIndex(of: ".") {
        record.motionCompanion = MotionPairing.code(
          ofExtension: companion[companion.index(after: dot)...])
      }
      if let sidecar = file.sidecar { state.sidecars[state.records.count] = sidecar }
      state.records.append(record)
      return state.records.count - 1
    }
  }

  /// Records `header` as `index`'s, read. O(model length) the first time a model is seen.
  func setHeader(_ header: PhotoHeader, at index: Int) {
    state.withLock { state in
      var record = state.records[index]
      Self.set(header, on: &record, at: index, in: &state)
      state.records[index] = record
    }
  }

  func headerRead(at index: Int) -> Bool {
    state.withLock { $0.records[index].flags.contains(.headerRead) }
  }

  func key(at index: Int, _ sort: PhotoSort) -> Int64 {
    state.withLock { $0.records[index].key(sort) }
  }

  /// The seconds photo `index` was taken (EXIF's date, as a wall clock), nil when its header
  /// gave none: no disk read. O(1).
  public func takenSeconds(at index: Int) -> Int64? {
    state.withLock { state in
      let record = state.records[index]
      return record.flags.contains(.taken) ? record.taken : nil
    }
  }

  /// Photo `index`'s pixel size as shown, when its header gave one: no disk read (a layout
  /// asks it of every photo).
  public func pixelSize(at index: Int) -> PixelSize? {
    state.withLock { state in
      let record = state.records[index]
      guard record.flags.contains(.pixelSize) else { return nil }
      return PixelSize(width: Int(record.width), height: Int(record.height))
    }
  }

  /// Records what photo `index`'s sidecar now says (after Tessera wrote it): its culling and
  /// the sidecar, or nil when it has none. O(1).
  func setCulling(_ culling: PhotoCulling?, sidecar: XMPSidecar?, at index: Int) {
    state.withLock { state in
      var record = state.records[index]
      record.ratings = Record.ratings(culled: culling?.rating, exif: record.exifRating)
      record.label = culling?.label?.rawValue ?? 0
      state.words[index] = SidecarWords(culling)
      state.records[index] = record
      state.sidecars[index] = sidecar
    }
  }

  /// Every tag of every photo, each once (the first spelling met), sorted ignoring case.
  /// - Complexity: O(t log t) for the t tags of the photos that have some.
  public func tagVocabulary() -> [String] {
    let all = state.withLock { $0.words.values.flatMap(\.tags) }
    var seen = Set<String>()
    return all.filter { seen.insert($0.lowercased()).inserted }
      .sorted { $0.lowercased() < $1.lowercased() }
  }

  /// The path of photo `index`'s XMP sidecar, when the walk found one: one `pread`.
  func sidecarPath(at index: Int) -> String? {
    guard let sidecar = state.withLock({ $0.sidecars[index] }) else { return nil }
    return sidecar.path(besidePhoto: path(at: index))
  }

  func folder(at index: Int) -> Int32 { state.withLock { $0.records[index].folder } }

  func folderName(_ folder: Int32) -> String { state.withLock { $0.folders[Int(folder)] } }

  /// The companion's name beside the photo at `path`: the photo's stem and `suffix`, the
  /// companion's extension (`RAWPairing.suffix(ofCode:)`, `MotionPairing.suffix(ofCode:)`).
  private static func companionName(_ suffix: String?, path: String) -> String? {
    guard let suffix else { return nil }
    let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
    let stem = name.lastIndex(of: ".").map { name[..<$0] } ?? name
    return "\(stem).\(suffix)"
  }

  /// The path of photo `index`: one `pread`.
  public func path(at index: Int) -> String {
    state.withLock { Self.path(index, $0) }
  }

  private static func path(_ index: Int, _ state: State) -> String {
    let record = state.records[index]
    return state.strings.string(
      at: .init(offset: record.pathOffset, length: Int(record.pathLength)))
  }

  /// A name for photo `index` that stays the same for its path while the process runs (a
  /// second walk's catalog gives it again), unique in this catalog, and short enough (at
  /// most 12 bytes) for Swift to hold in the string value itself: no allocation. No disk read.
  public func identifier(at index: Int) -> String {
    let record = state.withLock { $0.records[index] }
    // A photo whose path's hash an earlier photo has is named by its index (`~` is no
    // base-62 digit). Never seen by chance in practice: the hash is 64 bits, seeded.
    if record.flags.contains(.sharesHash) { return "~\(index)" }
    return Self.base62(UInt64(bitPattern: Int64(record.pathHash)))
  }

  private static func base62(_ value: UInt64) -> String {
    let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    var value = value
    var text = [UInt8]()
    text.reserveCapacity(11)
    repeat {
      text.append(digits[Int(value % 62)])
      value /= 62
    } while value > 0
    return String(decoding: text, as: UTF8.self)
  }

  /// Photo `index` with everything known of it. O(path length), one or two `pread`s.
  public func photo(at index: Int) -> LocalPhoto {
    state.withLock { state in
      let record = state.records[index]
      let path = state.strings.string(
        at: .init(offset: record.pathOffset, length: Int(record.pathLength)))
      let file = WalkedFile(
        path: path, size: record.size,
        modified: Date(timeIntervalSince1970: record.modifiedSince1970),
        rawCompanion: Self.companionName(
          RAWPairing.suffix(ofCode: record.rawCompanion), path: path),
        motionCompanion: Self.companionName(
          MotionPairing.suffix(ofCode: record.motionCompanion), path: path),
        sidecar: state.sidecars[index])
      var header: PhotoHeader?
      if record.flags.contains(.headerRead) {
        var exif: ExifFacts?
        if record.flags.contains(.exif) {
          let model =
            record.flags.contains(.model)
            ? state.strings.string(at: state.models[Int(record.model)]) : nil
          exif = ExifFacts(
            taken: record.flags.contains(.taken) ? WallClockTime(seconds: record.taken) : nil,
            model: model, orientation: record.orientation == 0 ? nil : Int(record.orientation),
            rating: record.exifRating)
        }
        header = PhotoHeader(
          pixelSize: record.flags.contains(.pixelSize)
            ? PixelSize(width: Int(record.width), height: Int(record.height)) : nil,
          exif: exif, duration: record.duration == 0 ? nil : Double(record.duration) / 100,
          isAnimated: record.flags.contains(.animated),
          culling: Self.culling(of: record, words: state.words[index]),
          appendedMotion: state.appendedMotion[index])
      }
      return LocalPhoto(
        file: file, modified: WallClockTime(seconds: record.modified), header: header)
    }
  }

  // MARK: order

  /// `incoming` sorted by `ordering` and merged into `order` (already sorted).
  /// - Complexity: O(k log k + n) comparisons for k incoming; a comparison reads names from
  ///   disk only when the keys, folders and names' first 8 bytes are all equal.
  func merge(
    _ incoming: some Collection<Int>, into order: [Int], by ordering: PhotoOrdering
  )
    -> [Int]
  {
    state.withLock { state in
      let sorted = incoming.sorted { Self.precedes($0, $1, ordering, &state) }
      return Self.merge(order, sorted) { Self.precedes($0, $1, ordering, &state) }
    }
  }

  /// Two sorted arrays as one. O(a + b).
  static func merge(_ a: [Int], _ b: [Int], by precedes: (Int, Int) -> Bool) -> [Int] {
    guard !b.isEmpty else { return a }
    guard !a.isEmpty else { return b }
    var merged: [Int] = []
    merged.reserveCapacity(a.count + b.count)
    var i = 0
    var j = 0
    while i < a.count, j < b.count {
      if precedes(b[j], a[i]) {
        merged.append(b[j])
        j += 1
      } else {
        merged.append(a[i])
        i += 1
      }
    }
    merged += a[i...]
    merged += b[j...]
    return merged
  }

  /// The sections of `order` (see `PhotoOrdering.sections`). O(n).
  func sections(of order: [Int], by ordering: PhotoOrdering) -> [PhotoSection] {
    state.withLock { state in
      ordering.sections(of: order) {
        ordering.sort == .rating
          ? Int64(state.records[$0].rating) : state.records[$0].key(ordering.sort)
      }
    }
  }

  /// Newest first (or by name), ties by folder, then name: a total order, a folder's names
  /// being unique. `reverse` turns it whole.
  private static func precedes(
    _ a: Int, _ b: Int, _ ordering: PhotoOrdering, _ state: inout State
  ) -> Bool {
    ordering.reverse ? forward(b, a, ordering.sort, &state) : forward(a, b, ordering.sort, &state)
  }

  private static func forward(_ a: Int, _ b: Int, _ sort: PhotoSort, _ state: inout State) -> Bool {
    // Records are numbered in the walk's order, which is the order the files were given.
    if sort == .given { return a < b }
    let left = state.records[a]
    let right = state.records[b]
    if sort == .name, left.nameKey != right.nameKey { return left.nameKey < right.nameKey }
    if sort == .name, left.run != right.run, let byName = compareNames(a, b, &state) {
      return byName
    }
    if sort == .rating, left.rating != right.rating { return left.rating > right.rating }
    if sort != .name {
      let keyA = left.key(sort)
      let keyB = right.key(sort)
      if keyA != keyB { return keyA > keyB }
    }
    if left.folder != right.folder {
      let folderA = state.folders[Int(left.folder)]
      let folderB = state.folders[Int(right.folder)]
      return folderA.utf8.lexicographicallyPrecedes(folderB.utf8)
    }
    if left.run == right.run { return left.nameRank < right.nameRank }
    if left.nameKey != right.nameKey { return left.nameKey < right.nameKey }
    return compareNames(a, b, &state) ?? (a < b)
  }

  /// Each name's place among `names` in UTF-8 order (what `precedes` compares). O(k log k).
  static func nameRanks(of names: [Substring.UTF8View]) -> [Int] {
    let sorted = names.indices.sorted { names[$0].lexicographicallyPrecedes(names[$1]) }
    var ranks = [Int](repeating: 0, count: names.count)
    for (rank, index) in sorted.enumerated() { ranks[index] = rank }
    return ranks
  }

  /// Whether `a`'s name comes before `b`'s (UTF-8 order); nil when they are equal.
  private static func compareNames(_ a: Int, _ b: Int, _ state: inout State) -> Bool? {
    let nameA = name(a, &state)
    let nameB = name(b, &state)
    return nameA == nameB ? nil : nameA.lexicographicallyPrecedes(nameB)
  }

  private static func name(_ index: Int, _ state: inout State) -> [UInt8] {
    if let known = state.names[index] { return known }
    state.namesReadBack += 1
    let record = state.records[index]
    let start = Int(record.pathLength) - Int(record.nameLength)
    let name = Array(
      state.strings.string(
        at: .init(offset: record.pathOffset + start, length: Int(record.nameLength))
      ).utf8)
    if state.names.count >= cachedNames { state.names.removeAll(keepingCapacity: true) }
    state.names[index] = name
    return name
  }

  // MARK: records

  private static func nameKey(_ name: Substring.UTF8View) -> UInt64 {
    var key: UInt64 = 0
    var shift = 56
    for byte in name.prefix(8) {
      key |= UInt64(byte) << UInt64(shift)
      shift -= 8
    }
    return key
  }

  private static func culling(of record: Record, words: SidecarWords?) -> PhotoCulling? {
    guard record.culledRating != nil || record.label != 0 || words != nil else { return nil }
    return PhotoCulling(
      rating: record.culledRating, label: PhotoCulling.Label(rawValue: record.label),
      tags: words?.tags ?? [], title: words?.title)
  }

  private static func set(
    _ header: PhotoHeader, on record: inout Record, at index: Int, in state: inout State
  ) {
    state.appendedMotion[index] = header.appendedMotion
    record.flags = header.isAnimated ? [.headerRead, .animated] : [.headerRead]
    record.ratings = Record.ratings(culled: header.culling?.rating, exif: header.exif?.rating)
    record.label = header.culling?.label?.rawValue ?? 0
    state.words[index] = SidecarWords(header.culling)
    record.duration =
      header.duration.map { UInt32(Int(clamping: $0 * 100, to: 1...Int(UInt32.max))) } ?? 0
    if let size = header.pixelSize {
      record.flags.insert(.pixelSize)
      record.width = Int32(clamping: size.width)
      record.height = Int32(clamping: size.height)
    }
    guard let exif = header.exif else { return }
    record.flags.insert(.exif)
    if let taken = exif.taken {
      record.flags.insert(.taken)
      record.taken = taken.seconds
    }
    if let orientation = exif.orientation, (1...8).contains(orientation) {
      record.orientation = Int8(orientation)
    }
    if let model = exif.model {
      if let known = state.modelIndex[model] {
        record.model = known
      } else {
        record.model = Int32(clamping: state.models.count)
        state.models.append(state.strings.append(model))
        if state.modelIndex.count < sharedModels { state.modelIndex[model] = record.model }
      }
      record.flags.insert(.model)
    }
  }
}

/// A sidecar's tags and title, kept only for the photos whose sidecar has either.
struct SidecarWords: Sendable {
  var tags: [String]
  var title: String?

  /// Nil when `culling` has neither.
  init?(_ culling: PhotoCulling?) {
    guard let culling, !culling.tags.isEmpty || culling.title != nil else { return nil }
    tags = culling.tags
    title = culling.title
  }
}
