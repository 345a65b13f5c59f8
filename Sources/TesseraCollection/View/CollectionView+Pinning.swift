/// Pinned section headers: the header of the section at the top of the viewport is drawn at
/// the top while its section scrolls under it, and is pushed up by the section's end.
extension CollectionView {
  /// Rows at the viewport's top that `section`'s pinned header covers (0 when headers are
  /// not pinned or it has none). O(1).
  func pinnedInset(forSection section: Int) -> Int {
    guard pinsSectionHeaders else { return 0 }
    return content.height(of: .sectionHeader, section: section)
  }

  /// Moves the header of the section at `band`'s top to where it is drawn pinned, keeping
  /// `elements` in ascending y; returns it, nil when nothing is pinned (headers not pinned,
  /// the top is outside every section, the section has no header, or its header is where the
  /// layout put it anyway).
  ///
  /// - Complexity: O(elements) — a scan of what is on screen.
  func pinHeader(in elements: inout [LayoutElement], band: Range<Int>) -> LayoutElement? {
    guard pinsSectionHeaders else { return nil }
    let top = band.lowerBound
    // The first section on screen, or one before it whose part at the top holds nothing
    // drawn (spacing under its last row, an empty section).
    let firstSection = elements.lazy.compactMap { element -> Int? in
      switch element.id {
      case .item(let path): path.section
      case .supplementary(.sectionHeader, let section), .supplementary(.sectionFooter, let section):
        section
      case .supplementary: nil
      }
    }.first
    guard var section = firstSection else { return nil }
    while section > 0, let extent = layout.extent(ofSection: section), extent.lowerBound > top {
      section -= 1
    }
    guard let extent = layout.extent(ofSection: section), extent.contains(top) else { return nil }
    let id = ElementID.supplementary(.sectionHeader, section: section)
    guard let natural = layout.frame(of: id) else { return nil }
    let y = max(natural.y, min(top, extent.upperBound - natural.height))
    guard y != natural.y else { return nil }
    let pinned = LayoutElement(
      id: id, frame: Rect(x: natural.x, y: y, width: natural.width, height: natural.height))
    elements.removeAll { $0.id == id }
    let position = elements.firstIndex { $0.frame.y >= y } ?? elements.endIndex
    elements.insert(pinned, at: position)
    return pinned
  }
}
