import Dispatch
import Foundation
import TesseraPhotoFormats
import TesseraUtilities

#if canImport(Glibc)
  import Glibc
#endif

/// Local photos as a walk finds them, kept in display order with their sections, for a
/// gallery that must show its first screen long before a 100,000-file walk ends.
///
/// How it stays fast: the walk only `stat`s (cheap), so photos first sort by their
/// modification time; headers (EXIF date taken, camera, orientation, pixel size) are read
/// afterwards — first those the screen shows (`prioritize(ids:)`), then the rest in the order
/// found — and a photo whose date taken differs moves to its place. Changes are published in
/// batches that grow with the library (at least `minimumPublish`, else half of what is
/// shown), so the engine gets O(log n) batch updates over a whole walk, not one per file.
///
/// A second look is instant: with a `PhotoFactsStore`, a photo whose file has not changed
/// takes the facts read last time as the walk finds it (no header read, no move), and each
/// folder's facts are stored once every photo in it has its header.
///
/// Lives on the main actor; the walk and the header reads run on Dispatch threads.
/// Holds its photos in a `PhotoCatalog`: a fixed-size record each, their paths on disk.
///
/// - Complexity: a publish is O(n + k log k) for k new or moved photos (merge into the sorted
///   order, sections in one pass); `prioritize` is O(photos). Memory O(n) at ~150 bytes a
///   photo with the gallery's items (`tessera bench library`).
@MainActor
public final class PhotoLibrary {
  /// What changed: the photos or their order (`order`, `sections`, `changedPhotos`), or only
  /// the progress.
  public enum Change: Equatable, Sendable {
    case items
    /// Only `changedPhotos`' facts changed; `order` and `sections` are as they were.
    case facts
    case progress
  }

  /// How far the walk and the header reads are.
  public struct Progress: Equatable, Sendable {
    public var photosFound = 0
    public var foldersWalked = 0
    public var headersRead = 0
    public var walkFinished = false

    /// Progress as given; `Progress()` is a walk not yet started.
    public init(
      photosFound: Int = 0, foldersWalked: Int = 0, headersRead: Int = 0,
      walkFinished: Bool = false
    ) {
      self.photosFound = photosFound
      self.foldersWalked = foldersWalked
      self.headersRead = headersRead
      self.walkFinished = walkFinished
    }
  }

  public let ordering: PhotoOrdering
  /// Every photo found, in the order found; an index there is a photo's lasting number.
  public let catalog = PhotoCatalog()
  /// Published display order: indices into `catalog`.
  public private(set) var order: [Int] = []
  /// Published sections over `order` (empty when not grouped).
  public private(set) var sections: [PhotoSection] = []
  /// Photos whose facts changed since the previous publish (headers read), for caches.
  public private(set) var changedPhotos: [Int] = []
  public private(set) var progress = Progress()
  /// Problems the walk met, each once ("“/p/x” can't be read (permission denied)").
  public private(set) var problems: [String] = []
  /// Called on the main actor after each change.
  public var onChange: (@MainActor (Change) -> Void)?
  /// Fewest new or moved photos that make a publish (unless the walk or the reads ended, or
  /// the screen's photos got their headers).
  public var minimumPublish = 512
  /// Headers read in the first background round (the screen's are read first, in a round of
  /// their own). Each later round reads twice as many, up to ``maxHeaderChunk``. A round trip
  /// to the main actor waits for whatever it is drawing while the screen fills (37 ms seen
  /// between two rounds of a cold launch), so a folder of a few hundred photos has every date
  /// after one round (~15 ms of reads for 200 camera JPEGs), and its first screen's decodes
  /// go to the photos that stay on it.
  public var headerChunk = 256
  /// The most headers one background round reads (a round on a cold disk takes seconds; the
  /// progress moves once per round).
  public var maxHeaderChunk = 1024
  private var nextChunk: Int?
  /// How long the first order may wait for the photos' dates (see `isSettlingFirstOrder`).
  /// A folder of a few hundred photos has every date ~15 ms after its walk; shown by
  /// modification time meanwhile, it had the decodes of its first screen start for photos
  /// that the dates then moved off it (two of a cold launch's first eight, on two cores).
  /// A slow disk shows its photos by modification time after this wait.
  public var provisionalOrderDelay = Duration.milliseconds(150)
  /// Set once `provisionalOrderDelay` has passed since the first photos were found.
  private var provisionalOrderDue = false
  private var provisionalOrderClock: Task<Void, Never>?

  private let walker: any FileWalking
  let headerReader: any PhotoHeaderReading
  let facts: PhotoFactsStore?
  private let factsWriter = DispatchQueue(label: "tessera.feeds.photo-facts", qos: .utility)
  /// With a facts store: the photos of each folder (the catalog's folder numbers), as the
  /// runs of lasting numbers the walk gave them, and how many have no header yet.
  private var folderMembers: [Int32: FolderMembers] = [:]
  /// Folders with a header read since their facts were stored.
  var foldersToStore: Set<Int32> = []
  private let zone: TimeZone
  private let stopped = Locked(false)
  private var started = false
  /// Runs of files of one folder listing given to the catalog so far.
  private var runs = 0
  private var unpublished: Set<Int> = []
  private var moved: Set<Int> = []
  private var changedSincePublish: [Int] = []
  private var priority: [Int] = []
  private var scanCursor = 0
  private var readingHeaders = false

  public init(
    walker: any FileWalking, ordering: PhotoOrdering = PhotoOrdering(),
    headerReader: any PhotoHeaderReading = LocalPhotoHeaderReader(),
    facts: PhotoFactsStore? = nil, zone: TimeZone = .current
  ) {
    self.walker = walker
    self.facts = facts
    self.ordering = ordering
    self.headerReader = headerReader
    self.zone = zone
  }

  /// The photo at a display position; nil outside.
  public func photo(atPosition position: Int) -> LocalPhoto? {
    order.indices.contains(position) ? catalog.photo(at: order[position]) : nil
  }

  /// Photos found so far.
  public var count: Int { catalog.count }

  /// Walks until the walk ends (or `stop()`, or the calling task is cancelled); header reads
  /// go on afterwards by themselves until every photo's is read.
  public func start() async {
    guard !started else { return }
    started = true
    let walker = walker
    let stopped = stopped
    let zone = zone
    let facts = facts
    // What each photo needs beside its file is found on the walk's thread (a time zone
    // look-up each, a facts file a folder), not the main actor. The catalog's records are
    // added on the main actor, in order.
    let stream = AsyncStream<WalkedPhotos> { continuation in
      DispatchQueue(label: "tessera.feeds.walk", qos: .userInitiated).async {
        var folder = ""
        var known = PhotoFactsStore.Folder()
        walker.walk { batch in
          var found = WalkedPhotos(batch: batch)
          for file in batch.files {
            // Photos of one folder share one string (the walk lists a folder's files in a row).
            let fileFolder = file.folder
            if fileFolder != folder {
              folder = fileFolder
              known = facts?.facts(ofFolder: folder) ?? PhotoFactsStore.Folder()
            }
            found.folders.append(folder)
            found.modified.append(WallClockTime(file.modified, in: zone))
            found.headers.append(known.header(of: file))
          }
          continuation.yield(found)
          return !stopped.withLock { $0 }
        }
        continuation.finish()
      }
    }
    await withTaskCancellationHandler {
      for await found in stream { ingest(found) }
    } onCancel: {
      stopped.withLock { $0 = true }
    }
  }

  /// Stops the walk and the header reads; what was found stays.
  public func stop() {
    stopped.withLock { $0 = true }
    provisionalOrderClock?.cancel()
  }

  /// The photos the screen shows (lasting numbers): their headers are read next.
  public func prioritize(photos: [Int]) {
    let count = catalog.count
    let wanted = photos.filter { (0..<count).contains($0) && !catalog.headerRead(at: $0) }
    guard !wanted.isEmpty else { return }
    priority = wanted
    readHeadersIfIdle()
  }

  // MARK: walk

  /// A walk's batch with, for each file, what the walk's thread found.
  private struct WalkedPhotos: Sendable {
    var batch: WalkBatch
    var folders: [String] = []
    var modified: [WallClockTime] = []
    var headers: [PhotoHeader?] = []

    init(batch: WalkBatch) {
      self.batch = batch
      folders.reserveCapacity(batch.files.count)
      modified.reserveCapacity(batch.files.count)
      headers.reserveCapacity(batch.files.count)
    }
  }

  private struct FolderMembers {
    var runs: [Range<Int>] = []
    var unread = 0

    var indices: some Sequence<Int> { runs.joined() }
  }

  private func ingest(_ found: WalkedPhotos) {
    let batch = found.batch
    var start = 0
    while start < batch.files.count {
      // A run: the files of one folder listing, ranked by name among themselves.
      var end = start + 1
      while end < batch.files.count, found.folders[end] == found.folders[start] { end += 1 }
      let ranks = PhotoCatalog.nameRanks(of: batch.files[start..<end].map(\.nameSlice.utf8))
      let run = runs
      runs += 1
      for offset in start..<end {
        add(batch.files[offset], offset, of: found, nameRank: ranks[offset - start], run: run)
      }
      start = end
    }
    problems += batch.problems.filter { !problems.contains($0) }
    progress.photosFound = catalog.count
    progress.foldersWalked = batch.foldersWalked
    progress.walkFinished = batch.finished
    if isSettlingFirstOrder, provisionalOrderClock == nil { startProvisionalOrderClock() }
    if !publishIfDue(force: batch.finished) { onChange?(.progress) }
    if batch.finished { storeCompletedFolders() }
    readHeadersIfIdle()
  }

  private func add(
    _ file: WalkedFile, _ offset: Int, of found: WalkedPhotos, nameRank: Int, run: Int
  ) {
    let header = found.headers[offset]
    guard
      let index = catalog.append(
        file, folder: found.folders[offset], modified: found.modified[offset], header: header,
        nameRank: nameRank, run: run)
    else { return }
    unpublished.insert(index)
    if facts != nil {
      let folder = catalog.folder(at: index)
      var members = folderMembers[folder] ?? FolderMembers()
      if let last = members.runs.last, last.upperBound == index {
        members.runs[members.runs.count - 1] = last.lowerBound..<index + 1
      } else {
        members.runs.append(index..<index + 1)
      }
      if header == nil { members.unread += 1 }
      folderMembers[folder] = members
    }
    if header != nil { progress.headersRead += 1 }
  }

  /// True while nothing is shown yet and every photo found without a date fits in one round
  /// of header reads: the first order waits for those dates (at most
  /// `provisionalOrderDelay`), so a small folder is first shown as it stays. A tree whose
  /// walk finds more than a round, or a second look whose dates are stored, shows at once.
  public var isSettlingFirstOrder: Bool {
    let unread = catalog.count - progress.headersRead
    return order.isEmpty && !provisionalOrderDue && unread > 0 && unread <= headerChunk
  }

  /// Ends the wait after `provisionalOrderDelay`; cancelled once the first order is out.
  private func startProvisionalOrderClock() {
    let delay = provisionalOrderDelay
    provisionalOrderClock = Task { [weak self] in
      try? await Task.sleep(for: delay)
      guard !Task.isCancelled, let self, !self.stopped.withLock({ $0 }) else { return }
      self.provisionalOrderDue = true
      if self.order.isEmpty { self.publishIfDue(force: true) }
    }
  }

  // MARK: headers

  private func readHeadersIfIdle() {
    guard !readingHeaders, !stopped.withLock({ $0 }) else { return }
    var chunk = priority.filter { !catalog.headerRead(at: $0) }
    let isPriority = !chunk.isEmpty
    priority.removeAll()
    if !isPriority {
      let size = nextChunk ?? headerChunk
      let count = catalog.count
      while chunk.count < size, scanCursor < count {
        if !catalog.headerRead(at: scanCursor) { chunk.append(scanCursor) }
        scanCursor += 1
      }
      if !chunk.isEmpty { nextChunk = min(max(headerChunk, maxHeaderChunk), size * 2) }
    }
    guard !chunk.isEmpty else { return }
    readingHeaders = true
    let paths = chunk.map { (catalog.path(at: $0), catalog.sidecarPath(at: $0)) }
    let reader = headerReader
    Task { [weak self] in
      let headers = await Self.readHeaders(paths, with: reader)
      self?.apply(headers, to: chunk, isPriority: isPriority)
    }
  }

  /// The headers of `paths`, in order, read by two threads for a round large enough to be
  /// worth it: a first round is what a small folder's first screen waits for.
  /// O(paths) reads.
  private nonisolated static func readHeaders(
    _ paths: [(photo: String, sidecar: String?)], with reader: any PhotoHeaderReading
  ) async -> [PhotoHeader?] {
    @Sendable func read(_ paths: [(photo: String, sidecar: String?)]) -> [PhotoHeader?] {
      paths.map { reader.header(ofFileAt: $0.photo, sidecar: $0.sidecar) }
    }
    guard paths.count >= 64 else { return await BlockingWork.run { read(paths) } }
    let half = paths.count / 2
    let front = Array(paths[..<half])
    let back = Array(paths[half...])
    async let first = BlockingWork.run { read(front) }
    let second = await BlockingWork.run { read(back) }
    return await first + second
  }

  private func apply(_ headers: [PhotoHeader?], to chunk: [Int], isPriority: Bool) {
    readingHeaders = false
    // A stopped library (replaced by a new walk) publishes nothing more.
    guard !stopped.withLock({ $0 }) else { return }
    let sort = ordering.sort
    for (index, header) in zip(chunk, headers) where !catalog.headerRead(at: index) {
      let oldKey = catalog.key(at: index, sort)
      catalog.setHeader(header ?? PhotoHeader(), at: index)
      changedSincePublish.append(index)
      if facts != nil {
        let folder = catalog.folder(at: index)
        folderMembers[folder]?.unread -= 1
        foldersToStore.insert(folder)
      }
      if catalog.key(at: index, sort) != oldKey, !unpublished.contains(index) {
        moved.insert(index)
      }
    }
    progress.headersRead += chunk.count
    let allRead = progress.walkFinished && progress.headersRead >= catalog.count
    // The screen's photos re-sort at once in a small library. In a large one a re-sort is
    // O(n) and moves the photos on screen away, whose successors would be read next and
    // move too: a cycle of full publishes. There they get their facts in place and move with
    // the next batch.
    let small = catalog.count <= minimumPublish
    if !publishIfDue(force: (isPriority && small) || allRead) {
      if isPriority { publishFactsInPlace(of: chunk) } else { onChange?(.progress) }
    }
    storeCompletedFolders()
    readHeadersIfIdle()
  }

  // MARK: facts

  /// Stores the facts of every folder whose photos all have headers, once the walk has
  /// ended (before, a folder may still be listing). O(photos of those folders).
  func storeCompletedFolders() {
    guard let facts, progress.walkFinished, !foldersToStore.isEmpty else { return }
    for folder in foldersToStore {
      guard let members = folderMembers[folder], members.unread <= 0 else { continue }
      foldersToStore.remove(folder)
      let entries = members.indices.map { index in
        let photo = catalog.photo(at: index)
        return PhotoFactsStore.Entry(
          name: photo.file.name, size: photo.file.size, modified: photo.file.modified,
          header: photo.header ?? PhotoHeader(), sidecar: photo.file.sidecar)
      }
      let folder = catalog.folderName(folder)
      // A folder that cannot be written is read afresh next time; nothing else is lost.
      factsWriter.async { try? facts.store(entries, ofFolder: folder) }
    }
  }

  /// Returns when every folder's facts handed to the store so far are written.
  public func factsStored() async {
    await withCheckedContinuation { continuation in
      factsWriter.async { continuation.resume() }
    }
  }

  // MARK: publishing

  /// Publishes when forced or when enough changed; true when it did.
  @discardableResult
  private func publishIfDue(force: Bool) -> Bool {
    if isSettlingFirstOrder { return false }
    let pending = unpublished.count + moved.count
    let due =
      (force && (pending > 0 || !changedSincePublish.isEmpty))
      || (order.isEmpty && !unpublished.isEmpty)
      || pending >= max(minimumPublish, order.count / 2)
    guard due else { return false }
    if !moved.isEmpty { order.removeAll { moved.contains($0) } }
    order = catalog.merge(unpublished.union(moved), into: order, by: ordering)
    unpublished.removeAll()
    moved.removeAll()
    sections = catalog.sections(of: order, by: ordering)
    provisionalOrderClock?.cancel()
    changedPhotos = changedSincePublish
    changedSincePublish.removeAll()
    onChange?(.items)
    if progress.walkFinished, progress.headersRead >= catalog.count,
      catalog.count >= Self.photosWorthTrimming
    {
      DispatchQueue.global(qos: .utility).async { Self.returnFreedMemory() }
    }
    return true
  }

  /// Photos from which the memory a walk frees is worth giving back: a small folder frees a
  /// few hundred kilobytes, and its last publish comes with its first screen, which a trim
  /// should not compete with.
  static let photosWorthTrimming = 10_000

  /// After the last publish the walk's batches, sorts and merges are freed, but glibc keeps
  /// freed memory in its arenas (~20 MB after a 100,000-photo walk): its free pages go back
  /// to the system, from a utility thread.
  private nonisolated static func returnFreedMemory() {
    #if canImport(Glibc)
      // `malloc.h` is not in Swift's Glibc module: found by name.
      typealias Trim = @convention(c) (Int) -> Int32
      guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") else { return }
      _ = unsafeBitCast(symbol, to: Trim.self)(0)
    #endif
  }

  /// Publishes the facts of `photos` (the screen's) without moving any photo: O(photos)
  /// here and for the gallery. They, and whatever else was read, move and are published
  /// again with the next batch.
  func publishFactsInPlace(of photos: [Int]) {
    changedPhotos = photos
    onChange?(.facts)
  }
}
