/// Columns across a width in whole units: `count` columns with `spacing` on both edges and
/// between them (n + 1 spans for n columns). The leftover of the integer division is spread one
/// unit at a time across the columns (Bresenham), so the last column ends exactly at
/// `width − spacing` with no "−1 error margin" and no ragged right edge.
///
/// O(count) to build, O(1) per query.
struct ColumnGeometry: Equatable {
  let count: Int
  let spacing: Int
  let xs: [Int]
  let widths: [Int]
  /// (width − (count + 1)·spacing) / count before rounding: the width heights per width use, so
  /// every column of a grid row gets the same height.
  let nominalWidth: Double

  /// `requested` columns, reduced when fewer fit at one unit each; never fewer than one.
  init(requested: Int, spacing rawSpacing: Int, width rawWidth: Int) {
    let spacing = max(0, rawSpacing)
    let width = max(0, rawWidth)
    let fitting = (width - spacing) / (1 + spacing)
    let count = max(1, min(max(1, requested), fitting))
    let available = width - (count + 1) * spacing
    let base = max(0, available) / count
    let leftover = max(0, available) - base * count
    var xs: [Int] = []
    var widths: [Int] = []
    xs.reserveCapacity(count)
    widths.reserveCapacity(count)
    var x = spacing
    for column in 0..<count {
      let extra = (column + 1) * leftover / count - column * leftover / count
      let columnWidth = max(1, base + extra)
      xs.append(x)
      widths.append(columnWidth)
      x += columnWidth + spacing
    }
    self.count = count
    self.spacing = spacing
    self.xs = xs
    self.widths = widths
    self.nominalWidth = max(1, Double(available) / Double(count))
  }
}
