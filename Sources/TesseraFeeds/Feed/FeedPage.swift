/// One fetched page of a feed: the usable items, the entries left out and whether more follow.
public struct FeedPage<Item: Sendable>: Sendable {
  public var items: [Item]
  public var skipped: [SkippedItem]
  /// The next page's number, or nil when this page is the last.
  public var nextPage: Int?

  public init(items: [Item], skipped: [SkippedItem] = [], nextPage: Int? = nil) {
    self.items = items
    self.skipped = skipped
    self.nextPage = nextPage
  }

  /// The same page with every item transformed (e.g. models into view models).
  public func map<Other: Sendable>(_ transform: (Item) -> Other) -> FeedPage<Other> {
    FeedPage<Other>(items: items.map(transform), skipped: skipped, nextPage: nextPage)
  }
}

/// Where a `FeedController` gets its items: a Flickr feed, a users list, a folder, a stub.
///
/// `fetch` runs off the main actor (the controller calls it from a `@concurrent` context), so
/// parsing and view-model construction never block the interface.
public protocol FeedSource: Sendable {
  associatedtype Item: Sendable
  /// What the items are called in messages: "photos", "contacts".
  var noun: String { get }
  /// Fetches page `page` (1-based). Throws `FeedError` only.
  func fetch(page: Int) async throws(FeedError) -> FeedPage<Item>
}
