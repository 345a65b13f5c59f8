/// How many items can be selected at once (UIKit's `allowsSelection` and
/// `allowsMultipleSelection` in one value).
public enum SelectionMode: Hashable, Sendable {
  /// Nothing can be selected; the focus still moves.
  case none
  /// At most one item: selecting another deselects the first.
  case single
  /// Any number of items, added one by one or as a range from the anchor.
  case multiple
}

/// Where the keyboard moves the focus, read from the layout's geometry (so "down" in a
/// waterfall is the tile below in the same column, not the item a column count later).
public enum FocusMove: Hashable, Sendable {
  /// The item after or before in reading order (flat index ± 1, across sections).
  case next
  case previous
  /// The nearest item on the same row to the left or right; at the row's end, the previous
  /// or next item in reading order.
  case left
  case right
  /// The nearest item above or below that overlaps the focused item's centre line (the
  /// closest one sideways when none does: a short last row).
  case up
  case down
  /// The item a screen height above or below, in the same column.
  case pageUp
  case pageDown
  /// The first and the last item.
  case first
  case last
}

/// In which coordinates a point is given.
public enum CoordinateSpace: Hashable, Sendable {
  /// Content coordinates: y = 0 is the top of the content.
  case content
  /// Viewport coordinates, as `visibleCells` frames are: y = 0 is the viewport's top row.
  case viewport
}
