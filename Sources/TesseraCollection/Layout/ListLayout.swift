/// Full-width rows that size themselves (UITableView with automatic dimensions, done right).
///
/// Every element — collection header, each section's header, items and footer, collection
/// footer — is one row of a `RowHeightIndex` (a Fenwick tree by default), so offset → row,
/// row → offset and a height change are O(log n), and scrolling to a row is exact even while
/// the rows in between are estimates. Rows start at `estimatedItemHeight` and are measured as
/// they come on screen; a width change turns measurements back into estimates (keeping their
/// values, the best guess), a height-only change keeps them.
///
/// Memory: 12 bytes per row in the Fenwick index + 1 bit for "measured".
@MainActor
public final class ListLayout: CollectionLayout {
  /// The height of a row until it is measured (at least 1).
  public let estimatedItemHeight: Int
  private let index: any RowHeightIndex
  private var measured = BitSet(count: 0)
  private var content = SectionedContent.empty
  /// The row of each section's header; one extra entry: the collection footer's row.
  private var sectionRows: [Int] = [1]
  private var width = 0

  /// `heightIndex` is the storage of row heights; benchmarks swap in a baseline.
  public init(estimatedItemHeight: Int = 1, heightIndex: any RowHeightIndex = FenwickRowHeights()) {
    self.estimatedItemHeight = max(1, estimatedItemHeight)
    self.index = heightIndex
  }

  /// Always true: rows are measured with `preferredHeight(forWidth:)` as they come on screen.
  public var sizesViewsToFit: Bool { true }

  /// Bytes held per item (heights, prefix sums, measured flags, section tables).
  public var bytesPerItem: Double {
    let bytes =
      index.storageBytes + measured.storageBytes + sectionRows.capacity * MemoryLayout<Int>.stride
    return Double(bytes) / Double(max(1, content.totalItems))
  }

  /// Builds the row index for `newContent`; measured heights follow their items through
  /// updates and become estimates on a width change. O(rows).
  public func prepare(
    _ newContent: SectionedContent, width newWidth: Int, reason: LayoutPreparation
  ) {
    let oldContent = content
    let oldRows = sectionRows
    let widthChanged = newWidth != width
    width = max(0, newWidth)
    switch reason {
    case .resize:
      if widthChanged { measured.reset(count: measured.count, value: false) }
      if newContent == oldContent { return }
      rebuild(newContent, carrying: nil, oldContent: oldContent, oldRows: oldRows)
    case .reload:
      rebuild(newContent, carrying: nil, oldContent: oldContent, oldRows: oldRows)
    case .update(let previous):
      rebuild(newContent, carrying: previous, oldContent: oldContent, oldRows: oldRows)
      if widthChanged { measured.reset(count: measured.count, value: false) }
    }
  }

  /// O(n): rows are rebuilt; carried items keep their height and measured flag.
  private func rebuild(
    _ newContent: SectionedContent, carrying previous: [Int?]?, oldContent: SectionedContent,
    oldRows: [Int]
  ) {
    var oldHeights: [Int32] = []
    var oldMeasured = BitSet(count: 0)
    if previous != nil {
      oldHeights.reserveCapacity(index.count)
      for row in 0..<index.count { oldHeights.append(Int32(clamping: index.height(at: row))) }
      oldMeasured = measured
    }
    content = newContent
    sectionRows = [1]
    sectionRows.reserveCapacity(newContent.sectionCount + 1)
    for count in newContent.itemCounts {
      sectionRows.append(sectionRows[sectionRows.count - 1] + count + 2)
    }
    let rowCount = sectionRows[sectionRows.count - 1] + 1
    var heights = [Int32](repeating: Int32(clamping: estimatedItemHeight), count: rowCount)
    measured.reset(count: rowCount, value: false)
    heights[0] = Int32(clamping: newContent.collectionHeaderHeight)
    heights[rowCount - 1] = Int32(clamping: newContent.collectionFooterHeight)
    for section in 0..<newContent.sectionCount {
      heights[sectionRows[section]] = Int32(clamping: newContent.sectionHeaderHeights[section])
      heights[sectionRows[section + 1] - 1] = Int32(
        clamping: newContent.sectionFooterHeights[section])
      guard let previous else { continue }
      let start = newContent.itemStarts[section]
      for item in 0..<newContent.itemCounts[section] {
        let flat = start + item
        guard flat < previous.count, let old = previous[flat], old >= 0, old < oldContent.totalItems
        else { continue }
        let oldSection = oldContent.section(ofFlat: old)
        let oldRow = oldRows[oldSection] + 1 + old - oldContent.itemStarts[oldSection]
        let row = sectionRows[section] + 1 + item
        heights[row] = oldHeights[oldRow]
        measured[row] = oldMeasured[oldRow]
      }
    }
    index.reset(heights: heights)
  }

  /// The sum of all row heights. O(log rows).
  public var contentHeight: Int { index.totalHeight }

  // MARK: rows ↔ elements

  private var lastRow: Int { sectionRows[sectionRows.count - 1] }

  /// The section whose rows contain `row` (header to footer). O(log sections).
  private func section(ofRow row: Int) -> Int {
    var low = 0
    var high = content.sectionCount - 1
    while low < high {
      let mid = (low + high + 1) / 2
      if sectionRows[mid] <= row { low = mid } else { high = mid - 1 }
    }
    return low
  }

  private func row(of element: ElementID) -> Int? {
    switch element {
    case .item(let path):
      guard content.flatIndex(of: path) != nil else { return nil }
      return sectionRows[path.section] + 1 + path.item
    case .supplementary(.collectionHeader, _): return 0
    case .supplementary(.collectionFooter, _): return lastRow
    case .supplementary(.sectionHeader, let section):
      guard section >= 0, section < content.sectionCount else { return nil }
      return sectionRows[section]
    case .supplementary(.sectionFooter, let section):
      guard section >= 0, section < content.sectionCount else { return nil }
      return sectionRows[section + 1] - 1
    }
  }

  /// The element on `row`, given a section at or before it (advanced as needed).
  private func element(atRow row: Int, section: inout Int) -> ElementID {
    if row == 0 { return .supplementary(.collectionHeader, section: 0) }
    if row >= lastRow { return .supplementary(.collectionFooter, section: 0) }
    while sectionRows[section + 1] <= row { section += 1 }
    let local = row - sectionRows[section]
    if local == 0 { return .supplementary(.sectionHeader, section: section) }
    if local == content.itemCounts[section] + 1 {
      return .supplementary(.sectionFooter, section: section)
    }
    return .item(IndexPath(item: local - 1, section: section))
  }

  /// How many items lie on rows before `row`.
  private func itemsBefore(row: Int) -> Int {
    if row <= 0 { return 0 }
    if row >= lastRow { return content.totalItems }
    let section = self.section(ofRow: row)
    let local = row - sectionRows[section]
    return content.itemStarts[section] + min(max(local - 1, 0), content.itemCounts[section])
  }

  // MARK: queries

  /// The rows in `band`. O(log rows + returned).
  public func elements(intersecting band: Range<Int>, into elements: inout [LayoutElement]) {
    guard !band.isEmpty, index.count > 0 else { return }
    var row = index.row(containing: band.lowerBound)
    guard row < index.count else { return }
    var top = index.offset(of: row)
    var section = content.sectionCount > 0 ? self.section(ofRow: row) : 0
    while row < index.count && top < band.upperBound {
      let height = index.height(at: row)
      if height > 0 {
        let id = element(atRow: row, section: &section)
        elements.append(
          LayoutElement(id: id, frame: Rect(x: 0, y: top, width: width, height: height)))
      }
      top += height
      row += 1
    }
  }

  /// From the section's header row to its footer row. O(log rows).
  public func extent(ofSection section: Int) -> Range<Int>? {
    guard section >= 0, section < content.sectionCount else { return nil }
    return index.offset(of: sectionRows[section])..<index.offset(of: sectionRows[section + 1])
  }

  /// The element's row, full width. O(log rows).
  public func frame(of element: ElementID) -> Rect? {
    guard let row = row(of: element) else { return nil }
    let height = index.height(at: row)
    guard height > 0 else { return nil }
    return Rect(x: 0, y: index.offset(of: row), width: width, height: height)
  }

  /// The flat indices of the item rows in `band`. O(log rows + log sections).
  public func itemRange(intersecting band: Range<Int>) -> Range<Int> {
    guard !band.isEmpty, index.count > 0 else { return 0..<0 }
    let first = index.row(containing: band.lowerBound)
    let last = index.row(containing: band.upperBound - 1)
    return itemsBefore(row: first)..<max(itemsBefore(row: first), itemsBefore(row: last + 1))
  }

  /// Whether the element's row still has its estimated height. O(1).
  public func isEstimated(_ element: ElementID) -> Bool {
    guard case .item = element, let row = row(of: element) else { return false }
    return !measured[row]
  }

  /// Records the row's measured height; returns whether it differed. O(log rows).
  public func setMeasuredHeight(_ height: Int, of element: ElementID) -> Bool {
    guard let row = row(of: element) else { return false }
    measured[row] = true
    let clamped = max(0, height)
    guard index.height(at: row) != clamped else { return false }
    index.setHeight(clamped, at: row)
    return true
  }

  /// Marks the row as estimated again, keeping its height as the estimate. O(1).
  public func invalidateMeasurement(of element: ElementID) {
    guard let row = row(of: element) else { return }
    measured[row] = false
  }
}
