import Foundation
import TesseraFeeds
import TesseraImages
import TesseraPhotoLibrary
import TesseraUtilities

/// Items under one header: `range` indexes `GalleryFeed.items`.
struct GallerySection: Equatable {
  /// The header's text; nil for a section without a header.
  var title: String?
  var range: Range<Int>
}

/// The feed the gallery shows, with the item type erased: photos from a Flickr-format feed or
/// a folder, or users. Wraps a `FeedController`, which owns loading, paging and failures.
@MainActor
package final class GalleryFeed {
  /// Sentence for the title bar: "photos from http://…".
  let title: String
  /// What the items are called: "photos", "contacts".
  let noun: String
  /// Where the items' images come from: only a folder source may open `file:` URLs. Taken
  /// from the kind of feed, never from a URL's scheme, so a remote feed cannot opt in.
  let imageSource: ImageRequest.Source
  /// The items shown: what the source gave, less what `filter` leaves out.
  package private(set) var items: [GalleryItem] = [] {
    didSet { itemIDs = items.map(\.id) }
  }
  /// `items`' ids, kept beside them: the engine diffs them on every update.
  private(set) var itemIDs: [String] = []
  /// The shown items under their headers, in order, covering `items` exactly; one untitled
  /// section for feeds without sections.
  private(set) var sections = [GallerySection(title: nil, range: 0..<0)]
  /// Everything the source gave, shown or not, and its sections.
  /// Every item in the source's order, before `filter` hides any.
  private(set) var allItems: [GalleryItem] = []
  private var allSections = [GallerySection(title: nil, range: 0..<0)]
  /// Trashed photos and the `/` query: changing it shows the items it now lets through, as
  /// one update.
  var filter = ItemFilter() {
    didSet {
      guard filter != oldValue else { return }
      publishShownItems()
      onChange?(.updated(changed: []))
    }
  }
  package var onChange: (@MainActor (FeedChange) -> Void)?
  /// The photos on screen: a local library reads their headers first.
  var prioritize: (@MainActor ([GalleryItem]) -> Void)?
  /// A folder's library: writes a culling into photos' sidecars (lasting numbers), and undoes
  /// one. Nil for a feed from the network.
  var cull: (@MainActor (CullingChange, [Int]) async -> PhotoLibrary.CullingOutcome)?
  var undoCulling: (@MainActor (PhotoLibrary.CullingUndo) async -> PhotoLibrary.CullingOutcome)?
  /// Every tag the library's photos have, for the tag prompt's completion.
  var tagVocabulary: (@MainActor () -> [String])?
  /// How far a walk is, for the status bar ("walking · 12,000 photos in 800 folders"); nil
  /// when there is nothing under way to tell.
  var progressText: String? { progressOf() }

  package enum FeedChange: Equatable {
    case state
    case replaced
    case appended(Range<Int>)
    /// Items came, moved or changed (a walk's batch, dates read): `changed` ids need new cells.
    case updated(changed: Set<String>)
    /// Only the facts of these items changed, in place: their cells are configured again.
    case factsChanged(Set<String>)
  }

  private var progressOf: @MainActor () -> String? = { nil }

  private var stateOf: @MainActor () -> FeedStateSnapshot
  private let loadBody: @MainActor () async -> Void
  private var refreshBody: @MainActor () async -> Void = {}
  private let nextPageBody: @MainActor () async -> Void

  struct FeedStateSnapshot: Equatable {
    var isLoading: Bool
    var failure: String?
    var hasMorePages: Bool
    var skipped: Int
    /// Why the first skipped entry was left out, for the status bar.
    var firstSkipped: String?
  }

  init<Source: FeedSource>(
    title: String, controller: FeedController<Source>, imageSource: ImageRequest.Source = .network,
    item: @escaping @Sendable (Source.Item) -> GalleryItem
  ) {
    self.title = title
    self.imageSource = imageSource
    noun = controller.source.noun
    stateOf = {
      let failure: String?
      if case .failed(let message) = controller.state { failure = message } else { failure = nil }
      return FeedStateSnapshot(
        isLoading: controller.state == .loading, failure: failure,
        hasMorePages: controller.hasMorePages, skipped: controller.skipped.count,
        firstSkipped: controller.skipped.first?.description)
    }
    loadBody = { await controller.load() }
    refreshBody = { await controller.refresh() }
    nextPageBody = { await controller.loadNextPage() }
    controller.onChange = { [weak self] change in
      guard let self else { return }
      switch change {
      case .state:
        self.onChange?(.state)
      case .replaced:
        self.takeItems(controller.viewModels.map(item), sections: nil)
        self.onChange?(.replaced)
      case .appended(let range):
        let start = self.items.count
        self.takeItems(self.allItems + controller.viewModels[range].map(item), sections: nil)
        self.onChange?(
          self.filter.isEmpty ? .appended(start..<self.items.count) : .updated(changed: []))
      }
    }
  }

  /// A local walk: items arrive in batches, sorted and sectioned by the library. `r` walks
  /// the folders again with a fresh library from `makeLibrary`; the screen keeps what it shows
  /// (the status bar says how far the new walk is) until that walk ends, then takes the new
  /// order in one update: files added or removed meanwhile come and go, nothing flashes.
  package init(title: String, makeLibrary: @escaping @MainActor () -> PhotoLibrary) {
    self.title = title
    imageSource = .localFolder
    noun = "photos"
    let first = makeLibrary()
    stateOf = { FeedStateSnapshot(isLoading: true, failure: nil, hasMorePages: false, skipped: 0) }
    loadBody = { await first.start() }
    nextPageBody = {}
    adopt(first)
    var current = first
    var walking = false
    refreshBody = { [weak self] in
      guard let self, !walking else { return }
      walking = true
      defer { walking = false }
      let fresh = makeLibrary()
      self.progressOf = { Self.progressText(fresh.progress) }
      // Until the walk ends only its progress is shown; its photos are taken all at once.
      fresh.onChange = { [weak self] _ in self?.onChange?(.state) }
      await fresh.start()
      // A small folder's first order waits for its dates: the screen keeps the old one
      // until then, not an empty one.
      if fresh.isSettlingFirstOrder {
        await withCheckedContinuation { (settled: CheckedContinuation<Void, Never>) in
          fresh.onChange = { [weak self] change in
            self?.onChange?(.state)
            guard change == .items else { return }
            fresh.onChange = { [weak self] _ in self?.onChange?(.state) }
            settled.resume()
          }
        }
      }
      // The old library's header reads still under way must not publish its order again.
      current.stop()
      current.onChange = nil
      current = fresh
      self.adopt(fresh)
      fresh.onChange?(.items)
    }
  }

  /// Shows `library`: its state, progress, order and sections from now on.
  private func adopt(_ library: PhotoLibrary) {
    let catalog = library.catalog
    let item = { (index: Int) in GalleryItem(local: index, in: catalog) }
    stateOf = {
      let progress = library.progress
      let empty = progress.walkFinished && library.count == 0
      return FeedStateSnapshot(
        isLoading: !progress.walkFinished || library.isSettlingFirstOrder,
        failure: empty
          ? "No photos found" + (library.problems.first.map { ": \($0)" } ?? "") : nil,
        hasMorePages: false, skipped: library.problems.count,
        firstSkipped: library.problems.first)
    }
    prioritize = { library.prioritize(photos: $0.compactMap(\.localIndex)) }
    cull = { await library.cull($0, photos: $1) }
    undoCulling = { await library.undo($0) }
    tagVocabulary = { library.catalog.tagVocabulary() }
    progressOf = { Self.progressText(library.progress) }
    library.onChange = { [weak self] change in
      guard let self else { return }
      if change == .facts {
        // Same order: an item reads its photo's facts when drawn, so its cell is configured
        // again where it stands.
        self.onChange?(.factsChanged(Set(library.changedPhotos.map { item($0).id })))
        return
      }
      guard change == .items else {
        self.onChange?(.state)
        return
      }
      let changed = Set(library.changedPhotos.map { item($0).id })
      self.takeItems(
        library.order.map(item),
        sections: library.sections.map { GallerySection(title: $0.title, range: $0.range) })
      self.onChange?(.updated(changed: changed))
    }
  }

  /// Takes what the source now holds (`sections` nil or empty: one untitled section) and
  /// publishes what `filter` shows of it.
  private func takeItems(_ items: [GalleryItem], sections: [GallerySection]?) {
    allItems = items
    allSections =
      sections.flatMap { $0.isEmpty ? nil : $0 } ?? [
        GallerySection(title: nil, range: items.indices)
      ]
    publishShownItems()
  }

  private func publishShownItems() {
    let shown = filter.apply(to: allItems, sections: allSections)
    items = shown.items
    sections = shown.sections
  }

  /// "walking · 1,204 photos in 96 folders", then "reading dates 300 of 1,204".
  nonisolated static func progressText(_ progress: PhotoLibrary.Progress) -> String? {
    let photos = CountText.grouped(progress.photosFound)
    if !progress.walkFinished {
      return "walking · \(photos) photos in \(CountText.grouped(progress.foldersWalked)) folders"
    }
    guard progress.headersRead < progress.photosFound else { return nil }
    return "reading dates \(CountText.grouped(progress.headersRead)) of \(photos)"
  }

  var state: FeedStateSnapshot { stateOf() }
  package func load() async { await loadBody() }
  func refresh() async { await refreshBody() }
  func loadNextPage() async { await nextPageBody() }
}
