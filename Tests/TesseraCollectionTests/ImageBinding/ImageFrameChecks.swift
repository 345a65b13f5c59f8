import Testing

@testable import TesseraCollection

/// The invariant of seeds 000 and 003, checked on one frame: every cell on screen shows its
/// own item, its own item's image or the placeholder — never another item's image — and a
/// cell bound while its image was cached shows that image (no placeholder first).
@MainActor
func expectEveryVisibleCellShowsItsOwnImage(
  _ view: CollectionView, _ source: TestDataSource,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  for visible in view.visibleCells {
    guard let cell = visible.cell as? TestCell else { continue }
    let expected = source.item(at: visible.indexPath)
    #expect(cell.item == expected, sourceLocation: sourceLocation)
    #expect(cell.imageSlot.itemID == AnyHashable(expected), sourceLocation: sourceLocation)
    if let image = cell.imageSlot.image {
      #expect(
        image.item == expected, "cell for \(expected) shows \(image.item)",
        sourceLocation: sourceLocation)
    }
    if source.boundFromCache[ObjectIdentifier(cell)] == true {
      #expect(
        cell.imageSlot.image != nil, "cached image not shown at once",
        sourceLocation: sourceLocation)
    }
  }
}

/// No flash: while a cell shows one item, once it showed that item's image it never goes back
/// to the placeholder, and it never shows any other item's image.
@MainActor
func expectNoFlash(in cell: TestCell, sourceLocation: SourceLocation = #_sourceLocation) {
  var shownImageFor: Int?
  for (item, content) in cell.imageHistory {
    guard let item else {
      shownImageFor = nil
      continue
    }
    switch content {
    case .image(let image):
      #expect(
        image.item == item, "cell showing \(item) got \(image.item)'s image",
        sourceLocation: sourceLocation)
      shownImageFor = item
    case .placeholder, .failed:
      #expect(
        shownImageFor != item, "item \(item) flashed back to the placeholder",
        sourceLocation: sourceLocation)
    }
  }
}
