/// Fixed-shape cells in columns, like a flow layout with one item size, in whole units.
///
/// Column widths follow `ColumnGeometry` (cellWidth = (W − (n+1)·span) / n, the leftover
/// spread so the columns line up edge to edge); every cell of the grid has the height
/// round(nominalWidth × heightPerWidth) + addedHeight, so rows line up too. Rows are separated by `spacing`,
/// with `spacing` above the first row and below the last of each section.
///
/// Stores nothing per item: frames are arithmetic. Preparing is O(sections); a query is
/// O(log sections + elements returned).
@MainActor
public final class GridLayout: CollectionLayout {
  /// How many columns: a fixed number, or as many as fit at a minimum width (so a terminal
  /// resize changes the column count).
  public enum Columns: Hashable, Sendable {
    case fixed(Int)
    case adaptive(minimumWidth: Int)
  }

  /// How many columns; takes effect at the next `prepare` (a reload or a resize).
  public var columns: Columns
  /// Units between columns, between rows, and around the edges.
  public let spacing: Int
  /// Cell height ÷ cell width (100 wide × 120 high is 1.2): the inverse of an image's aspect
  /// ratio (width ÷ height), named for what it is.
  public let heightPerWidth: Double
  /// Units every cell has beyond its proportional height: a caption's line under a picture
  /// of `heightPerWidth`.
  public let addedHeight: Int

  private var stack = SectionStack()
  private var width = 0
  private var geometry = ColumnGeometry(requested: 1, spacing: 0, width: 0)
  private var cellHeight = 1

  /// A grid of `columns`, `spacing` units apart, whose cells are `heightPerWidth` times as
  /// tall as they are wide (a non-finite or non-positive value is 1), plus `addedHeight`
  /// (0…1,000).
  public init(
    columns: Columns, spacing: Int = 1, heightPerWidth: Double = 1, addedHeight: Int = 0
  ) {
    self.columns = columns
    self.spacing = max(0, spacing)
    self.heightPerWidth = heightPerWidth.isFinite && heightPerWidth > 0 ? heightPerWidth : 1
    self.addedHeight = min(1_000, max(0, addedHeight))
  }

  /// The column geometry in use (columns actually laid out, their x and widths).
  public var columnCount: Int { geometry.count }
  /// Each column's x and width, left to right.
  public var columnFrames: [(x: Int, width: Int)] {
    zip(geometry.xs, geometry.widths).map { (x: $0, width: $1) }
  }
  /// The height of every cell.
  public var itemHeight: Int { cellHeight }

  /// Computes the columns and the cell height for `width`. O(sections).
  public func prepare(_ content: SectionedContent, width: Int, reason: LayoutPreparation) {
    self.width = max(0, width)
    let requested: Int
    switch columns {
    case .fixed(let count): requested = count
    case .adaptive(let minimumWidth):
      requested = max(1, (self.width - spacing) / (max(1, minimumWidth) + spacing))
    }
    geometry = ColumnGeometry(requested: requested, spacing: spacing, width: self.width)
    cellHeight =
      roundedHeight(width: geometry.nominalWidth, heightPerWidth: heightPerWidth, fallback: 1)
      + addedHeight
    let bodies = content.itemCounts.map(bodyHeight(items:))
    stack.reset(content, bodyHeights: bodies)
  }

  private var pitch: Int { cellHeight + spacing }

  private func bodyHeight(items: Int) -> Int {
    guard items > 0 else { return 0 }
    let rows = (items + geometry.count - 1) / geometry.count
    return spacing + rows * pitch
  }

  /// The height of all sections, their supplementary views and spacing.
  public var contentHeight: Int { stack.contentHeight }

  /// The cells and supplementary views in `band`, by arithmetic. O(log sections + returned).
  public func elements(intersecting band: Range<Int>, into elements: inout [LayoutElement]) {
    stack.elements(intersecting: band, width: width, into: &elements) { section, elements in
      let rows = rowRange(section: section, band: band)
      let count = stack.content.itemCounts[section]
      for row in rows {
        let first = row * geometry.count
        for item in first..<min(count, first + geometry.count) {
          elements.append(
            LayoutElement(
              id: .item(IndexPath(item: item, section: section)),
              frame: itemFrame(item: item, section: section)))
        }
      }
    }
  }

  private func rowRange(section: Int, band: Range<Int>) -> Range<Int> {
    let count = stack.content.itemCounts[section]
    guard count > 0 else { return 0..<0 }
    let rows = (count + geometry.count - 1) / geometry.count
    let firstRowTop = stack.bodyTop(section) + spacing
    // Row r spans [firstRowTop + r·pitch, … + cellHeight).
    let first = max(0, floorDiv(band.lowerBound - firstRowTop - cellHeight, pitch) + 1)
    let last = min(rows - 1, floorDiv(band.upperBound - 1 - firstRowTop, pitch))
    return first <= last ? first..<(last + 1) : 0..<0
  }

  private func itemFrame(item: Int, section: Int) -> Rect {
    let row = item / geometry.count
    let column = item % geometry.count
    return Rect(
      x: geometry.xs[column], y: stack.bodyTop(section) + spacing + row * pitch,
      width: geometry.widths[column], height: cellHeight)
  }

  /// From the section's header to its footer. O(1).
  public func extent(ofSection section: Int) -> Range<Int>? {
    stack.extent(ofSection: section)
  }

  /// The element's frame, computed. O(1) for an item.
  public func frame(of element: ElementID) -> Rect? {
    switch element {
    case .item(let path):
      guard stack.content.flatIndex(of: path) != nil else { return nil }
      return itemFrame(item: path.item, section: path.section)
    case .supplementary(let kind, let section):
      return stack.frame(of: kind, section: section, width: width)
    }
  }

  /// The flat indices of the rows `band` crosses. O(log sections + sections crossed).
  public func itemRange(intersecting band: Range<Int>) -> Range<Int> {
    var lower = Int.max
    var upper = Int.min
    for section in stack.sections(intersecting: band) {
      let rows = rowRange(section: section, band: band)
      guard !rows.isEmpty else { continue }
      let start = stack.content.itemStarts[section]
      let count = stack.content.itemCounts[section]
      lower = min(lower, start + rows.lowerBound * geometry.count)
      upper = max(upper, start + min(count, rows.upperBound * geometry.count))
    }
    return lower <= upper ? lower..<upper : 0..<0
  }
}
