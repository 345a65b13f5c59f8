import TesseraFeeds
import TesseraImages

/// The feed the gallery shows, with the item type erased: photos from a Flickr-format feed or
/// a folder, or users. Wraps a `FeedController`, which owns loading, paging and failures.
@MainActor
final class GalleryFeed {
  /// Sentence for the title bar: "photos from http://…".
  let title: String
  /// What the items are called: "photos", "contacts".
  let noun: String
  /// Where the items' images come from: only a folder source may open `file:` URLs. Taken
  /// from the kind of feed, never from a URL's scheme, so a remote feed cannot opt in.
  let imageSource: ImageRequest.Source
  private(set) var items: [GalleryItem] = []
  var onChange: (@MainActor (FeedChange) -> Void)?

  enum FeedChange: Equatable {
    case state
    case replaced
    case appended(Range<Int>)
  }

  private let stateOf: @MainActor () -> FeedStateSnapshot
  private let loadBody: @MainActor () async -> Void
  private let refreshBody: @MainActor () async -> Void
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
        self.items = controller.viewModels.map(item)
        self.onChange?(.replaced)
      case .appended(let range):
        let start = self.items.count
        self.items += controller.viewModels[range].map(item)
        self.onChange?(.appended(start..<self.items.count))
      }
    }
  }

  var state: FeedStateSnapshot { stateOf() }
  func load() async { await loadBody() }
  func refresh() async { await refreshBody() }
  func loadNextPage() async { await nextPageBody() }
}
