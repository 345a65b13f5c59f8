import TesseraPhotoLibrary

/// What the feed holds but the screen does not show: photos moved to the Trash (`d`, until
/// `u` puts them back), the frames of a closed burst stack but its first, and, while `/`
/// filters, every item the query does not select.
///
/// The query is `PhotoQuery`'s grammar, as `tessera find --filter` takes it
/// (`rating>=3 label:red !rejected camera:x100 date:2024-05`); a plain word is a name to look
/// for. While it is not yet one (`rating>` half typed), it is looked for as a name.
///
/// - Complexity: `apply` is O(items), plus O(query) per item while a query is set.
struct ItemFilter: Equatable {
  /// Ids of items not shown whatever the query (trashed photos).
  var hidden: Set<String> = []
  /// Ids of the photos a closed stack shows as its first (`BurstStacks`); while a query
  /// filters they show, each one that matches.
  var stacked: Set<String> = []
  /// `/`: what selects the items shown; empty shows every item.
  var query = "" {
    didSet { (parsed, parseFailure) = Self.parse(query) }
  }
  private var parsed: PhotoQuery?
  /// Why `query` is not a query yet; parsed once with it.
  private var parseFailure: String?

  init(hidden: Set<String> = [], query: String = "") {
    self.hidden = hidden
    self.query = query
    (parsed, parseFailure) = Self.parse(query)
  }

  private static func parse(_ query: String) -> (PhotoQuery?, String?) {
    do {
      return (try PhotoQuery(query), nil)
    } catch {
      return (nil, error.description)
    }
  }

  var isEmpty: Bool { hidden.isEmpty && stacked.isEmpty && query.isEmpty }

  /// Why the query does not filter as written: not one yet ("“rating>=9”: a rating is −1
  /// (rejected) to 5"; it is looked for as a name meanwhile). Nil when it filters as
  /// written, or is empty.
  var problem: String? { query.isEmpty ? nil : parseFailure }

  /// Whether `item` matches the query (every item does when there is none).
  func matches(_ item: GalleryItem) -> Bool {
    guard !query.isEmpty else { return true }
    guard let parsed else { return item.title.range(of: query, options: [.caseInsensitive]) != nil }
    return parsed.matches(item.queryFacts)
  }

  /// `items` less what is not shown, and `sections` (ranges into `items`) remade over what is
  /// left; a section left with no item goes.
  func apply(
    to items: [GalleryItem], sections: [GallerySection]
  ) -> (
    items: [GalleryItem], sections: [GallerySection]
  ) {
    guard !isEmpty else { return (items, sections) }
    var shown: [GalleryItem] = []
    var shownSections: [GallerySection] = []
    for section in sections {
      let start = shown.count
      for item in items[section.range]
      where !hidden.contains(item.id) && !(query.isEmpty && stacked.contains(item.id))
        && matches(item)
      {
        shown.append(item)
      }
      if shown.count > start || section.title == nil && sections.count == 1 {
        shownSections.append(GallerySection(title: section.title, range: start..<shown.count))
      }
    }
    if shownSections.isEmpty { shownSections = [GallerySection(title: nil, range: 0..<0)] }
    return (shown, shownSections)
  }
}
