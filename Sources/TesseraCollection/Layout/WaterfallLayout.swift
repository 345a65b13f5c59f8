/// Columns of items with their own shapes (Pinterest): each item goes to the shortest
/// column (the leftmost on ties), below the items placed before it.
///
/// Because every item lands on the lowest column bottom and bottoms only grow, item tops are
/// non-decreasing in item order; a query is two binary searches plus the items returned
/// (scanning back at most the tallest item's height for items straddling the band's top).
/// A shape (height ÷ width) that arrives later changes that item's height and re-places only the items
/// after it in its section (O(items after it)); everything before it stays where it was.
///
/// Memory: 14 bytes per item (top, height, height ÷ width, column).
@MainActor
public final class WaterfallLayout: CollectionLayout {
  /// The number of columns (at least 1).
  public let columnCount: Int
  /// Units between columns, between items in a column, and around the edges.
  public let spacing: Int
  /// Height ÷ width used until an item's own is known.
  public let defaultHeightPerWidth: Double
  /// Items' height ÷ width already known when content is (re)loaded, e.g. images in the
  /// memory cache (an image's aspect ratio, width ÷ height, inverted).
  public var heightPerWidthProvider: ((IndexPath) -> Double?)?

  private var stack = SectionStack()
  private var width = 0
  private var geometry = ColumnGeometry(requested: 1, spacing: 0, width: 0)
  /// Per flat item, relative to its section's body top.
  private var tops: [Int32] = []
  private var heights: [Int32] = []
  private var columns: [UInt16] = []
  /// 0 means unknown (the default ratio applies).
  private var heightsPerWidth: [Float32] = []
  private var tallest = 0

  /// A waterfall of `columns`, `spacing` units apart; an item whose shape is not known yet is
  /// `defaultHeightPerWidth` times as tall as its column is wide (a non-finite or non-positive
  /// value is 1).
  public init(columns: Int, spacing: Int = 1, defaultHeightPerWidth: Double = 1) {
    self.columnCount = max(1, min(columns, Int(UInt16.max)))
    self.spacing = max(0, spacing)
    self.defaultHeightPerWidth =
      defaultHeightPerWidth.isFinite && defaultHeightPerWidth > 0 ? defaultHeightPerWidth : 1
  }

  /// Places every item for `width`, keeping the shapes already known for items that survived
  /// an update. O(items).
  public func prepare(_ content: SectionedContent, width newWidth: Int, reason: LayoutPreparation) {
    width = max(0, newWidth)
    geometry = ColumnGeometry(requested: columnCount, spacing: spacing, width: width)
    let total = content.totalItems
    switch reason {
    case .resize where heightsPerWidth.count == total:
      break
    case .update(let previous):
      var carried = [Float32](repeating: 0, count: total)
      for flat in 0..<min(total, previous.count) {
        if let old = previous[flat], old >= 0, old < heightsPerWidth.count {
          carried[flat] = heightsPerWidth[old]
        }
      }
      heightsPerWidth = carried
    case .reload, .resize:
      heightsPerWidth = [Float32](repeating: 0, count: total)
      if let provider = heightPerWidthProvider {
        for flat in 0..<total {
          if let ratio = provider(content.indexPath(ofFlat: flat)), ratio.isFinite, ratio > 0 {
            heightsPerWidth[flat] = Float32(ratio)
          }
        }
      }
    }
    tops = [Int32](repeating: 0, count: total)
    heights = [Int32](repeating: 0, count: total)
    columns = [UInt16](repeating: 0, count: total)
    tallest = 0
    var bodies: [Int] = []
    bodies.reserveCapacity(content.sectionCount)
    for section in 0..<content.sectionCount {
      bodies.append(place(section: section, content: content, from: content.itemStarts[section]))
    }
    stack.reset(content, bodyHeights: bodies)
  }

  private func height(ofFlat flat: Int, column: Int) -> Int {
    let ratio = heightsPerWidth[flat] > 0 ? Double(heightsPerWidth[flat]) : defaultHeightPerWidth
    return roundedHeight(
      width: Double(geometry.widths[column]), heightPerWidth: ratio,
      fallback: defaultHeightPerWidth)
  }

  /// Places the items of `section` from flat index `first` on; returns the body height.
  private func place(section: Int, content: SectionedContent, from first: Int) -> Int {
    let start = content.itemStarts[section]
    let end = content.itemStarts[section + 1]
    guard end > start else { return 0 }
    var bottoms = columnBottoms(before: first, sectionStart: start)
    for flat in first..<end {
      var column = 0
      for candidate in 1..<geometry.count where bottoms[candidate] < bottoms[column] {
        column = candidate
      }
      let height = height(ofFlat: flat, column: column)
      tops[flat] = Int32(clamping: bottoms[column])
      heights[flat] = Int32(clamping: height)
      columns[flat] = UInt16(column)
      tallest = max(tallest, height)
      bottoms[column] += height + spacing
    }
    return bottoms.max() ?? 0
  }

  /// Column bottoms just before item `first`: the last item placed in each column, found by
  /// scanning back (usually about one item per column).
  private func columnBottoms(before first: Int, sectionStart: Int) -> [Int] {
    var bottoms = [Int](repeating: spacing, count: geometry.count)
    var found = 0
    var seen = [Bool](repeating: false, count: geometry.count)
    var flat = first - 1
    while flat >= sectionStart && found < geometry.count {
      let column = Int(columns[flat])
      if !seen[column] {
        seen[column] = true
        found += 1
        bottoms[column] = Int(tops[flat]) + Int(heights[flat]) + spacing
      }
      flat -= 1
    }
    return bottoms
  }

  /// The height of all sections: each section's tallest column, plus headers and footers.
  public var contentHeight: Int { stack.contentHeight }

  /// Flat indices of `section`'s items intersecting `band` (content coordinates).
  private func itemRange(section: Int, band: Range<Int>) -> Range<Int> {
    let start = stack.content.itemStarts[section]
    let end = stack.content.itemStarts[section + 1]
    guard end > start else { return start..<start }
    let bodyTop = stack.bodyTop(section)
    let upper = firstIndex(in: start..<end, withTopAtLeast: band.upperBound - bodyTop)
    var lower = firstIndex(in: start..<upper, withTopAtLeast: band.lowerBound - bodyTop - tallest)
    while lower < upper && Int(tops[lower]) + Int(heights[lower]) + bodyTop <= band.lowerBound {
      lower += 1
    }
    return lower..<upper
  }

  private func firstIndex(in range: Range<Int>, withTopAtLeast y: Int) -> Int {
    var low = range.lowerBound
    var high = range.upperBound
    while low < high {
      let mid = (low + high) / 2
      if Int(tops[mid]) < y { low = mid + 1 } else { high = mid }
    }
    return low
  }

  private func itemFrame(flat: Int, section: Int) -> Rect {
    let column = Int(columns[flat])
    return Rect(
      x: geometry.xs[column], y: stack.bodyTop(section) + Int(tops[flat]),
      width: geometry.widths[column], height: Int(heights[flat]))
  }

  /// The items and supplementary views in `band`. O(log items + returned).
  public func elements(intersecting band: Range<Int>, into elements: inout [LayoutElement]) {
    stack.elements(intersecting: band, width: width, into: &elements) { section, elements in
      let start = stack.content.itemStarts[section]
      for flat in itemRange(section: section, band: band) {
        let frame = itemFrame(flat: flat, section: section)
        guard frame.intersects(band) else { continue }
        elements.append(
          LayoutElement(id: .item(IndexPath(item: flat - start, section: section)), frame: frame))
      }
    }
  }

  /// From the section's header to its footer. O(1).
  public func extent(ofSection section: Int) -> Range<Int>? {
    stack.extent(ofSection: section)
  }

  /// The element's frame. O(1) for an item.
  public func frame(of element: ElementID) -> Rect? {
    switch element {
    case .item(let path):
      guard let flat = stack.content.flatIndex(of: path) else { return nil }
      return itemFrame(flat: flat, section: path.section)
    case .supplementary(let kind, let section):
      return stack.frame(of: kind, section: section, width: width)
    }
  }

  /// The flat indices of the items in `band`. O(log items) per section crossed.
  public func itemRange(intersecting band: Range<Int>) -> Range<Int> {
    var lower = Int.max
    var upper = Int.min
    for section in stack.sections(intersecting: band) {
      let range = itemRange(section: section, band: band)
      guard !range.isEmpty else { continue }
      lower = min(lower, range.lowerBound)
      upper = max(upper, range.upperBound)
    }
    return lower <= upper ? lower..<upper : 0..<0
  }

  /// Gives the item its own shape and re-places the items after it in its section; returns
  /// whether any frame changed. A non-finite or non-positive `ratio` is ignored. O(items
  /// after it).
  public func setHeightPerWidth(_ ratio: Double, ofItem item: IndexPath) -> Bool {
    guard ratio.isFinite, ratio > 0, let flat = stack.content.flatIndex(of: item) else {
      return false
    }
    heightsPerWidth[flat] = Float32(ratio)
    let newHeight = height(ofFlat: flat, column: Int(columns[flat]))
    guard newHeight != Int(heights[flat]) else { return false }
    let body = place(section: item.section, content: stack.content, from: flat)
    stack.setBodyHeight(body, of: item.section)
    return true
  }
}
