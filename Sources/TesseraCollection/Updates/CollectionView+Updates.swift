/// What a batch update did, in index paths.
public struct BatchUpdate: Equatable, Sendable {
  /// A kept item at another index path.
  public struct Move: Equatable, Sendable {
    /// Its index path before the update.
    public var from: IndexPath
    /// Its index path after the update.
    public var to: IndexPath
  }
  /// Index paths before the update.
  public var deleted: [IndexPath] = []
  /// Index paths after the update.
  public var inserted: [IndexPath] = []
  /// Kept items whose index path changed beyond what the inserts and deletes explain.
  public var moved: [Move] = []
  /// Index paths after the update of kept items whose content changed.
  public var reloaded: [IndexPath] = []
  /// No earlier identifiers to diff against: everything was reloaded.
  public var reloadedEverything = false
}

extension CollectionView {
  /// Reloads, remembering each item's identifier for later batch updates. Duplicate
  /// identifiers are refused (and nothing changes).
  public func reloadData<ID: Hashable>(identifiers sections: [[ID]]) throws(CollectionError) {
    try IdentifierSnapshotBox<ID>.validate(sections)
    reloadData()
    identifiers = IdentifierSnapshotBox(sections)
  }

  /// The data source changed to `newSections` of identifiers: diff them against the last ones
  /// by identity (Heckel, O(n)) and apply inserts, deletes and moves without reloading the
  /// rest. Cells on screen whose item survived keep their cell (and its image); items in
  /// `reloading` get a fresh cell. The item at the top of the screen stays where it is.
  ///
  /// Throws — changing nothing — on a duplicate identifier or when the data source's counts
  /// disagree with `newSections`.
  @discardableResult
  public func performBatchUpdates<ID: Hashable>(
    identifiers newSections: [[ID]], reloading: Set<ID> = []
  ) throws(CollectionError) -> BatchUpdate {
    if let dataSource {
      let sections = dataSource.numberOfSections(in: self)
      guard sections == newSections.count else {
        throw .sectionCountMismatch(identifiers: newSections.count, dataSource: sections)
      }
      for (section, ids) in newSections.enumerated() {
        let count = dataSource.collectionView(self, numberOfItemsInSection: section)
        guard count == ids.count else {
          throw .countMismatch(section: section, identifiers: ids.count, dataSource: count)
        }
      }
    }
    guard let old = identifiers as? IdentifierSnapshotBox<ID>, !needsReload else {
      try reloadData(identifiers: newSections)
      return BatchUpdate(reloadedEverything: true)
    }
    let newBox = IdentifierSnapshotBox(newSections)
    let newIDs = newBox.flat
    let diff: IdentifierDiff
    do {
      // The diff refuses duplicates in its own pass (one hash table fewer per update, which
      // is most of an update's cost in a 100,000-item feed); on refusal, the validation
      // names the duplicate by section.
      diff = try IdentifierDiff(old: old.flat, new: newIDs)
    } catch {
      try IdentifierSnapshotBox<ID>.validate(newSections)
      throw error
    }
    let oldContent = content
    let newContent = loadContentFromDataSource()

    let anchor = survivingAnchor(diff: diff, newContent: newContent)
    rekeyDisplayed(diff: diff, oldContent: oldContent, newContent: newContent) {
      reloading.contains(newIDs[$0])
    }
    prefetched = remap(prefetched, diff: diff)
    prefetchWindowItems = remap(prefetchWindowItems, diff: diff)
    lastPrefetchQuery = (0..<0, 0..<0)
    lastVisibleItems = remap(lastVisibleItems, diff: diff)
    if let target = pendingTarget {
      pendingTarget = remap(target, diff: diff, oldContent: oldContent, newContent: newContent)
    }
    needsMeasure = Set(
      needsMeasure.compactMap { id in
        guard case .item(let path) = id, let old = oldContent.flatIndex(of: path),
          let new = diff.oldToNew[old]
        else { return nil }
        return .item(newContent.indexPath(ofFlat: new))
      })

    content = newContent
    identifiers = newBox
    selection.remap(oldToNew: diff.oldToNew, newCount: newContent.totalItems)
    pinnedHeader = nil
    layout.prepare(
      newContent, width: viewportWidth, reason: .update(previousFlatIndex: diff.newToOld))
    onScreen = onScreen.compactMap { element in
      layout.frame(of: element.id).map { LayoutElement(id: element.id, frame: $0) }
    }
    if pendingTarget != nil {
      resolvePendingTarget()
    } else if let anchor {
      restore(anchor)
    }
    clampOffset()
    needsLayout = true

    var result = BatchUpdate()
    result.deleted = diff.deletes.map { oldContent.indexPath(ofFlat: $0) }
    result.inserted = diff.inserts.map { newContent.indexPath(ofFlat: $0) }
    result.moved = diff.moves.map {
      BatchUpdate.Move(
        from: oldContent.indexPath(ofFlat: $0.from), to: newContent.indexPath(ofFlat: $0.to))
    }
    result.reloaded = newIDs.indices.filter {
      diff.newToOld[$0] != nil && reloading.contains(newIDs[$0])
    }
    .map { newContent.indexPath(ofFlat: $0) }
    return result
  }

  /// The first item on screen that survives the update (in its new index path), with its
  /// viewport y.
  private func survivingAnchor(
    diff: IdentifierDiff, newContent: SectionedContent
  )
    -> ScrollTarget?
  {
    for element in onScreen {
      guard case .item(let path) = element.id, let oldFlat = content.flatIndex(of: path),
        let newFlat = diff.oldToNew[oldFlat]
      else { continue }
      return ScrollTarget(
        element: .item(newContent.indexPath(ofFlat: newFlat)),
        placement: .viewportY(Double(element.frame.y) - contentOffset))
    }
    return nil
  }

  /// Cells of surviving items move to their new index paths; the others (deleted,
  /// reloaded, supplementary views) leave the screen.
  private func rekeyDisplayed(
    diff: IdentifierDiff, oldContent: SectionedContent, newContent: SectionedContent,
    isReloaded: (Int) -> Bool
  ) {
    var kept: [ElementID: DisplayedView] = [:]
    var keptOrder: [LayoutElement] = []
    let order =
      onScreen.map(\.id) + displayed.keys.filter { id in !onScreen.contains { $0.id == id } }
    for id in order {
      guard let shown = displayed[id] else { continue }
      if case .item(let path) = id, let oldFlat = oldContent.flatIndex(of: path),
        let newFlat = diff.oldToNew[oldFlat], !isReloaded(newFlat)
      {
        let newPath = newContent.indexPath(ofFlat: newFlat)
        displayed[id] = nil
        kept[.item(newPath)] = shown
        keptOrder.append(
          LayoutElement(id: .item(newPath), frame: Rect(x: 0, y: 0, width: 0, height: 0)))
      } else {
        recycle(id)
      }
    }
    displayed = kept
    onScreen = keptOrder
  }

  private func remap(_ ranges: [Range<Int>], diff: IdentifierDiff) -> [Range<Int>] {
    var flats: [Int] = []
    for range in ranges {
      for old in range where old < diff.oldToNew.count {
        if let new = diff.oldToNew[old] { flats.append(new) }
      }
    }
    return RangeList.grouping(flats.sorted())
  }

  private func remap(
    _ target: ScrollTarget, diff: IdentifierDiff, oldContent: SectionedContent,
    newContent: SectionedContent
  ) -> ScrollTarget? {
    guard case .item(let path) = target.element else { return nil }
    guard let oldFlat = oldContent.flatIndex(of: path), let newFlat = diff.oldToNew[oldFlat] else {
      return nil
    }
    return ScrollTarget(
      element: .item(newContent.indexPath(ofFlat: newFlat)), placement: target.placement)
  }
}
