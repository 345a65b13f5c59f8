/// A cell on screen, for the renderer: its frame is in viewport coordinates (y = 0 is the
/// top row of the viewport) and whole units.
public struct VisibleCell {
  /// The item the cell shows.
  public let indexPath: IndexPath
  /// The cell, as the data source configured it.
  public let cell: any ReusableView
  /// Where to draw it, in viewport coordinates.
  public let frame: Rect
}

/// A supplementary view on screen, frame in viewport coordinates.
public struct VisibleSupplementaryView {
  /// Header or footer, of a section or of the collection.
  public let kind: SupplementaryKind
  /// Its section (0 for the collection's own header and footer).
  public let section: Int
  /// The view, as the data source configured it.
  public let view: any ReusableView
  /// Where to draw it, in viewport coordinates.
  public let frame: Rect
}

extension CollectionView {
  /// Passes per frame at most: each pass measures the views that just came on screen; a pass
  /// that moves something (a measured height differs from its estimate) runs the next.
  static let maximumLayoutPasses = 8

  /// The per-frame update: applies a pending reload, then recycles the views that left the
  /// screen and dequeues, configures and measures the ones that entered, keeping the
  /// anchored element in place, then tells the data source about the prefetch window.
  /// Does nothing when nothing changed since the last call.
  public func layoutIfNeeded() {
    reloadIfNeeded()
    if pendingTarget != nil { resolvePendingTarget() }
    guard needsLayout || !needsMeasure.isEmpty else { return }
    needsLayout = false
    var passes = 0
    while passes < Self.maximumLayoutPasses {
      let moved = displayPass(measuring: passes < Self.maximumLayoutPasses - 1)
      passes += 1
      // A data source that changed the layout while configuring a view (a cached image
      // gives a waterfall tile its shape at once) needs the frames of this pass laid out
      // again, or the view keeps its old frame until something else moves.
      let changedWhileConfiguring = needsLayout
      needsLayout = false
      guard moved || changedWhileConfiguring else { break }
    }
    if !motion.isAnimating { pendingTarget = nil }
    updatePrefetch()
    needsLayout = false
  }

  /// One pass; returns whether measuring moved frames (another pass is needed).
  private func displayPass(measuring: Bool) -> Bool {
    pass &+= 1
    let pass = self.pass
    scratch.removeAll(keepingCapacity: true)
    layout.elements(intersecting: visibleBand, into: &scratch)
    pinnedHeader = pinHeader(in: &scratch, band: visibleBand)
    // One hash per element: views still on screen are stamped in place, the rest enter.
    var entering: [Int] = []
    for (position, element) in scratch.enumerated() {
      if let index = displayed.index(forKey: element.id) {
        displayed.values[index].stamp = pass
      } else {
        entering.append(position)
      }
    }
    // Leaving views go back to the pool top to bottom, before any view is dequeued, so the
    // pool hands them out in a predictable order and never allocates while one is free.
    for element in onScreen {
      if let index = displayed.index(forKey: element.id), displayed.values[index].stamp != pass {
        recycle(at: index)
      }
    }
    if displayed.count > scratch.count - entering.count {
      for id in displayed.compactMap({ $0.value.stamp == pass ? nil : $0.key }) { recycle(id) }
    }
    let measures = layout.sizesViewsToFit && measuring
    var measured: [(id: ElementID, height: Int)] = []
    for position in entering {
      let element = scratch[position]
      guard let view = makeView(for: element.id) else { continue }
      displayed[element.id] = DisplayedView(view: view, stamp: pass, entered: pass)
      tellWillDisplay(view, element.id)
      if measures, let height = view.preferredHeight(forWidth: element.frame.width) {
        measured.append((element.id, height))
      }
    }
    if measures && !needsMeasure.isEmpty {
      for id in needsMeasure {
        guard let shown = displayed[id], let frame = layout.frame(of: id) else { continue }
        if let height = shown.view.preferredHeight(forWidth: frame.width) {
          measured.append((id, height))
        }
      }
      needsMeasure.removeAll()
    }
    swap(&onScreen, &scratch)
    laidOutOffset = presentedOffset
    guard !measured.isEmpty else { return false }

    let anchor = measurementAnchor(entering: entering)
    var moved = false
    for (id, height) in measured where layout.setMeasuredHeight(height, of: id) { moved = true }
    guard moved else { return false }
    if pendingTarget != nil {
      resolvePendingTarget()
    } else if let anchor {
      restore(anchor)
    }
    clampOffset()
    return true
  }

  /// The element measurements must not move: the first on screen that was already on screen
  /// before this pass and whose height is known (rows coming in at the top grow upwards),
  /// else the first on screen. `entering` holds ascending positions in `onScreen`.
  private func measurementAnchor(entering: [Int]) -> ScrollTarget? {
    var next = 0
    var stable: LayoutElement?
    for (position, element) in onScreen.enumerated() {
      if next < entering.count && entering[next] == position {
        next += 1
        continue
      }
      // A pinned header is not where the layout put it: it cannot hold anything in place.
      if element.id == pinnedHeader?.id { continue }
      if !layout.isEstimated(element.id) {
        stable = element
        break
      }
    }
    guard let stable = stable ?? onScreen.first(where: { $0.id != pinnedHeader?.id }) else {
      return nil
    }
    return ScrollTarget(
      element: stable.id, placement: .viewportY(Double(stable.frame.y) - contentOffset))
  }

  /// Puts `anchor`'s element back at its viewport y; a running animation shifts with it.
  func restore(_ anchor: ScrollTarget) {
    guard let frame = layout.frame(of: anchor.element) else { return }
    let offset = targetOffset(anchor, frame: frame)
    let shift = offset - contentOffset
    if let target = motion.animationTarget { motion.retarget(target + shift) }
    setOffset(min(max(offset, 0), maximumOffset))
  }

  func targetOffset(_ target: ScrollTarget, frame: Rect) -> Double {
    switch target.placement {
    case .viewportY(let y): Double(frame.y) - y
    case .position(.top): Double(frame.y)
    case .position(.center): Double(frame.y - (viewportHeight - frame.height) / 2)
    case .position(.bottom): Double(frame.maxY - viewportHeight)
    }
  }

  /// Moves to the pending target (or, while animating, moves the animation's target).
  func resolvePendingTarget() {
    guard let target = pendingTarget else { return }
    guard let frame = layout.frame(of: target.element) else {
      pendingTarget = nil
      return
    }
    let offset = min(max(targetOffset(target, frame: frame), 0), maximumOffset)
    if motion.isAnimating {
      motion.retarget(offset)
    } else {
      setOffset(offset)
    }
  }

  private func makeView(for id: ElementID) -> (any ReusableView)? {
    guard let dataSource else { return nil }
    switch id {
    case .item(let path):
      return dataSource.collectionView(self, cellForItemAt: path)
    case .supplementary(let kind, let section):
      return dataSource.collectionView(
        self, viewForSupplementaryElementOfKind: kind, at: IndexPath(item: 0, section: section))
    }
  }

  private func tellWillDisplay(_ view: any ReusableView, _ id: ElementID) {
    guard let delegate else { return }
    switch id {
    case .item(let path):
      delegate.collectionView(self, willDisplay: view, forItemAt: path)
    case .supplementary(let kind, let section):
      delegate.collectionView(
        self, willDisplaySupplementaryView: view, ofKind: kind,
        at: IndexPath(item: 0, section: section))
    }
  }

  /// Takes a view off screen: its index path becomes nil, the delegate hears
  /// didEndDisplaying, and it waits in the pool.
  func recycle(_ id: ElementID) {
    guard let index = displayed.index(forKey: id) else { return }
    recycle(at: index)
  }

  private func recycle(at index: Dictionary<ElementID, DisplayedView>.Index) {
    let (id, shown) = displayed.remove(at: index)
    if let delegate {
      switch id {
      case .item(let path):
        delegate.collectionView(self, didEndDisplaying: shown.view, forItemAt: path)
      case .supplementary(let kind, let section):
        delegate.collectionView(
          self, didEndDisplayingSupplementaryView: shown.view, ofKind: kind,
          at: IndexPath(item: 0, section: section))
      }
    }
    pool.enqueue(shown.view)
  }

  func recycleAll() {
    for id in onScreen.map(\.id) { recycle(id) }
    for id in Array(displayed.keys) { recycle(id) }
    onScreen = []
    needsMeasure.removeAll()
  }

  // MARK: what the renderer reads

  /// The cells on screen after the last `layoutIfNeeded()`, top to bottom, frames in viewport
  /// coordinates.
  public var visibleCells: [VisibleCell] {
    onScreen.compactMap { element in
      guard case .item(let path) = element.id, let shown = displayed[element.id] else {
        return nil
      }
      return VisibleCell(
        indexPath: path, cell: shown.view, frame: element.frame.offsetBy(dy: -laidOutOffset))
    }
  }

  /// The supplementary views on screen after the last `layoutIfNeeded()`.
  public var visibleSupplementaryViews: [VisibleSupplementaryView] {
    onScreen.compactMap { element in
      guard case .supplementary(let kind, let section) = element.id,
        let shown = displayed[element.id]
      else { return nil }
      return VisibleSupplementaryView(
        kind: kind, section: section, view: shown.view,
        frame: element.frame.offsetBy(dy: -laidOutOffset))
    }
  }

  /// Index paths of the cells on screen, top to bottom.
  public var indexPathsForVisibleItems: [IndexPath] {
    onScreen.compactMap { if case .item(let path) = $0.id { path } else { nil } }
  }

  /// The frame of an item in content coordinates.
  public func frameForItem(at indexPath: IndexPath) -> Rect? {
    layout.frame(of: .item(indexPath))
  }

  // MARK: size changes

  /// The item's content changed size (its text, its image): it is measured again when on
  /// screen, the rows around it keep their place. O(log n) in a list.
  public func invalidateSize(ofItemAt indexPath: IndexPath) throws(CollectionError) {
    reloadIfNeeded()
    guard content.flatIndex(of: indexPath) != nil else { throw .invalidIndexPath(indexPath) }
    let id = ElementID.item(indexPath)
    layout.invalidateMeasurement(of: id)
    if displayed[id] != nil {
      needsMeasure.insert(id)
      needsLayout = true
    }
  }

  /// The item's height ÷ width became known (its image's aspect ratio, width ÷ height,
  /// inverted), e.g. its image arrived. A
  /// waterfall moves only what follows the item; the element at the top of the screen stays
  /// put. Layouts with fixed shapes ignore it; self-sizing lists measure the cell again.
  public func setHeightPerWidth(
    _ ratio: Double, forItemAt indexPath: IndexPath
  )
    throws(CollectionError)
  {
    reloadIfNeeded()
    guard content.flatIndex(of: indexPath) != nil else { throw .invalidIndexPath(indexPath) }
    let anchor = topAnchor()
    if layout.setHeightPerWidth(ratio, ofItem: indexPath) {
      needsLayout = true
      if pendingTarget != nil {
        resolvePendingTarget()
      } else if let anchor {
        restore(anchor)
      }
      clampOffset()
    } else if layout.sizesViewsToFit {
      try invalidateSize(ofItemAt: indexPath)
    }
  }
}
