/// Which item is where: hit-testing for a pointer, and the geometric neighbours the
/// keyboard moves between.
extension CollectionView {
  /// The item at a point, nil on spacing, a header or footer, or outside the content. In
  /// viewport coordinates the point is read against what was last laid out, and a pinned
  /// header hides the items under it.
  /// - Complexity: O(log n + elements in that row).
  public func indexPathForItem(
    atX x: Int, y: Int, in space: CoordinateSpace = .content
  )
    -> IndexPath?
  {
    reloadIfNeeded()
    var contentY = y
    if space == .viewport {
      guard y >= 0, y < viewportHeight, x >= 0, x < viewportWidth else { return nil }
      contentY = y + laidOutOffset
      if let pinned = pinnedHeader, pinned.frame.contains(x: x, y: contentY) { return nil }
    }
    guard contentY >= 0, contentY < layout.contentHeight else { return nil }
    var found: [LayoutElement] = []
    layout.elements(intersecting: contentY..<(contentY + 1), into: &found)
    for element in found where element.frame.contains(x: x, y: contentY) {
      if case .item(let path) = element.id { return path }
    }
    return nil
  }

  /// The flat index `move` leads to from item `flat`, nil when there is none that way.
  func neighbour(of flat: Int, _ move: FocusMove) -> Int? {
    let count = content.totalItems
    switch move {
    case .next: return flat + 1 < count ? flat + 1 : nil
    case .previous: return flat > 0 ? flat - 1 : nil
    case .first: return 0
    case .last: return count - 1
    default: break
    }
    guard let path = indexPath(ofFlat: flat), let frame = layout.frame(of: .item(path)) else {
      return nil
    }
    switch move {
    case .left: return sideways(from: frame, towardsRight: false) ?? neighbour(of: flat, .previous)
    case .right: return sideways(from: frame, towardsRight: true) ?? neighbour(of: flat, .next)
    case .up: return vertical(from: frame, down: false)
    case .down: return vertical(from: frame, down: true)
    case .pageUp: return nearestItem(toX: centerX(frame), y: centerY(frame) - viewportHeight)
    case .pageDown: return nearestItem(toX: centerX(frame), y: centerY(frame) + viewportHeight)
    default: return nil
    }
  }

  private func centerX(_ frame: Rect) -> Int { frame.x + frame.width / 2 }
  private func centerY(_ frame: Rect) -> Int { frame.y + frame.height / 2 }

  /// How far `x` is from the columns `frame` covers (0 inside).
  private func horizontalGap(_ x: Int, _ frame: Rect) -> Int {
    x < frame.x ? frame.x - x : (x >= frame.maxX ? x - frame.maxX + 1 : 0)
  }

  /// The items, with their flat indices, laid out in `band`.
  private func items(in band: Range<Int>) -> [(flat: Int, frame: Rect)] {
    var found: [LayoutElement] = []
    layout.elements(intersecting: band, into: &found)
    return found.compactMap { element in
      guard case .item(let path) = element.id, let flat = content.flatIndex(of: path) else {
        return nil
      }
      return (flat, element.frame)
    }
  }

  /// The nearest item on the rows `frame` spans that crosses its centre line, to one side.
  private func sideways(from frame: Rect, towardsRight: Bool) -> Int? {
    let middle = centerY(frame)
    let row = items(in: frame.y..<max(frame.maxY, frame.y + 1)).filter { candidate in
      candidate.frame.y <= middle && middle < candidate.frame.maxY
        && (towardsRight ? candidate.frame.x >= frame.maxX : candidate.frame.maxX <= frame.x)
    }
    let nearest =
      towardsRight
      ? row.min { $0.frame.x < $1.frame.x } : row.max { $0.frame.maxX < $1.frame.maxX }
    return nearest?.flat
  }

  /// The nearest item wholly above or below `frame`: the one crossing its centre column,
  /// unless another lies a whole row nearer (then that one, the nearest sideways). The band
  /// doubles until it finds an item or reaches the content's end.
  private func vertical(from frame: Rect, down: Bool) -> Int? {
    let middle = centerX(frame)
    let end = layout.contentHeight
    var span = max(2 * frame.height, 2)
    while true {
      let band = down ? frame.maxY..<min(end, frame.maxY + span) : max(0, frame.y - span)..<frame.y
      guard !band.isEmpty else { return nil }
      let candidates = items(in: band).filter { candidate in
        down ? candidate.frame.y >= frame.maxY : candidate.frame.maxY <= frame.y
      }
      func gap(_ candidate: Rect) -> Int {
        down ? candidate.y - frame.maxY : frame.y - candidate.maxY
      }
      // The nearest below (or above), and the nearest crossing the centre column; the first
      // unless a whole row lies between them (a short last row, a section's end).
      let nearest = candidates.min { a, b in
        (gap(a.frame), horizontalGap(middle, a.frame))
          < (gap(b.frame), horizontalGap(middle, b.frame))
      }
      let inColumn = candidates.filter { horizontalGap(middle, $0.frame) == 0 }.min {
        gap($0.frame) < gap($1.frame)
      }
      if let nearest {
        guard let inColumn else { return nearest.flat }
        let rowBetween =
          down ? nearest.frame.maxY <= inColumn.frame.y : nearest.frame.y >= inColumn.frame.maxY
        return rowBetween ? nearest.flat : inColumn.flat
      }
      if band.count < span { return nil }  // reached the content's edge
      span *= 2
    }
  }

  /// The item nearest a point (clamped into the content): the least vertical distance, then
  /// the least sideways.
  private func nearestItem(toX x: Int, y: Int) -> Int? {
    let end = layout.contentHeight
    guard end > 0 else { return nil }
    let y = min(max(y, 0), end - 1)
    var span = max(viewportHeight, 2)
    while true {
      let band = max(0, y - span)..<min(end, y + span)
      func distance(_ frame: Rect) -> (Int, Int) {
        let dy = y < frame.y ? frame.y - y : (y >= frame.maxY ? y - frame.maxY + 1 : 0)
        return (dy, horizontalGap(x, frame))
      }
      if let best = items(in: band).min(by: { distance($0.frame) < distance($1.frame) }) {
        return best.flat
      }
      if band.lowerBound == 0 && band.upperBound == end { return nil }
      span *= 2
    }
  }
}
