import TesseraCollection

// The snippets of SelectionFocusAndPinnedHeaders.md, as code that must compile (checked by
// `CollectionDocumentationSnippetTests`).

@MainActor private func drawCell(_ cell: any ReusableView, in frame: Rect, selected: Bool) {}
@MainActor private func drawHeader(_ view: any ReusableView, in frame: Rect) {}

@MainActor private func click(collectionView: CollectionView, column: Int, row: Int) throws {
  // A click at a terminal cell of the viewport.
  if let path = collectionView.indexPathForItem(atX: column, y: row, in: .viewport) {
    try collectionView.toggleSelection(at: path)
  }
}

@MainActor private func arrowKeys(collectionView: CollectionView) {
  collectionView.selectionMode = .multiple
  collectionView.moveFocus(.down)
  collectionView.moveFocus(.right, extendingSelection: true)  // Shift-→
}

@MainActor private func drawWithPinnedHeaders(collectionView: CollectionView) {
  collectionView.pinsSectionHeaders = true
  collectionView.layoutIfNeeded()
  for visible in collectionView.visibleCells {
    let selected = collectionView.isItemSelected(at: visible.indexPath)
    drawCell(visible.cell, in: visible.frame, selected: selected)
  }
  for header in collectionView.visibleSupplementaryViews {
    drawHeader(header.view, in: header.frame)
  }
}
