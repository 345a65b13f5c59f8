/// An array kept in fixed-size pages: appending never copies what is stored (an array that
/// doubles copies everything and holds both buffers for a moment, and keeps up to half its
/// capacity unused), so a list of a million records costs its records and one page more.
///
/// - Complexity: `append` O(1) (a page is reserved whole when one fills), subscript O(1).
///   Memory: `count` elements rounded up to a page.
struct PagedArray<Element> {
  static var pageSize: Int { 4096 }
  private var pages: [ContiguousArray<Element>] = []
  private(set) var count = 0

  var isEmpty: Bool { count == 0 }

  mutating func append(_ element: Element) {
    if count % Self.pageSize == 0 {
      var page = ContiguousArray<Element>()
      page.reserveCapacity(Self.pageSize)
      pages.append(page)
    }
    pages[pages.count - 1].append(element)
    count += 1
  }

  subscript(index: Int) -> Element {
    get { pages[index / Self.pageSize][index % Self.pageSize] }
    set { pages[index / Self.pageSize][index % Self.pageSize] = newValue }
  }
}
