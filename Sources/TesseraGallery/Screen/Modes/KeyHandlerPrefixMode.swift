import TesseraTerminal

/// The key-handler's mode: after Ctrl-x, the next key goes to the key-handler with the chosen
/// paths (Esc, or a key it cannot name, cancels); when it returns, the status bar says how it
/// went.
extension GalleryScreen {
  /// The key after Ctrl-x.
  func handleKeyHandlerKey(_ key: Key) -> Command {
    modes.awaitsKeyHandlerKey = false
    needsDisplay = true
    guard let argument = KeyHandler.argument(for: key) else { return .none }
    return .runKeyHandler(key: argument, paths: chosenPaths())
  }

  /// After the key-handler: the status bar says how it went, and since it may have changed
  /// the photos (rotated, renamed, removed), every image is asked for again and the folders
  /// walked again.
  func keyHandlerFinished(_ outcome: KeyHandler.Outcome) {
    status.message = outcome.message
    guard case .finished = outcome else { return }
    loader.pipeline.memoryCache?.removeAll()
    detail.shown = nil
    for visible in collectionView.visibleCells {
      guard let cell = visible.cell as? any GalleryCell, let item = cell.item else { continue }
      cell.slot.prepareForReuse()
      configure(cell, with: item, at: visible.indexPath)
    }
    if case .detail = overlay {
      detail.slot.prepareForReuse()
      bindDetailImage()
    }
    Task { await refresh() }
    needsDisplay = true
  }
}
