/// What the feed holds but the screen does not show: photos moved to the Trash (`d`, until
/// `u` puts them back) and, while `/` filters, every item whose name does not contain the
/// query.
///
/// - Complexity: `apply` is O(items), plus O(query) per item while a query is set.
struct ItemFilter: Equatable {
  /// Ids of items not shown whatever the query (trashed photos).
  var hidden: Set<String> = []
  /// `/`: only items whose title contains this, ignoring case; empty shows every item.
  var query = ""

  var isEmpty: Bool { hidden.isEmpty && query.isEmpty }

  /// Whether `title` matches the query (every title does when there is none).
  func matches(title: String) -> Bool {
    query.isEmpty || title.range(of: query, options: [.caseInsensitive]) != nil
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
      for item in items[section.range] where !hidden.contains(item.id) && matches(title: item.title)
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
