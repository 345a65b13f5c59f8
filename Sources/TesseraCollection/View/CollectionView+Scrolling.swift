extension CollectionView {
  // MARK: dragging

  /// A finger (or mouse button) went down: any fling or animation stops where it is.
  public func beginDrag() {
    pendingTarget = nil
    motion.beginDrag()
    delegate?.collectionViewWillBeginDragging(self)
  }

  /// The drag moved the content offset by `delta` units (positive: towards the end of the
  /// content, as when the finger moves up). Clamped at both ends. Begins a drag if none is
  /// in progress.
  public func drag(by delta: Double) {
    guard delta.isFinite else { return }
    if !motion.isDragging { beginDrag() }
    setOffset(min(max(contentOffset + delta, 0), maximumOffset))
  }

  /// The finger lifted with `velocity` in units per millisecond of content offset (positive:
  /// towards the end). Fast enough, the content decelerates at 0.998 per ms as `tick(by:)`
  /// advances time.
  public func endDrag(velocity: Double) {
    guard motion.isDragging else { return }
    let decelerates = motion.endDrag(
      velocity: velocity, offset: contentOffset, bounds: offsetBounds)
    delegate?.collectionViewDidEndDragging(self, willDecelerate: decelerates)
  }

  // MARK: wheel, keys and programmatic scrolling

  /// Scrolls by `delta` units (wheel, arrow keys). Animated, the content glides there with
  /// momentum (the fast deceleration rate) and successive calls add up; otherwise it jumps.
  public func scroll(by delta: Double, animated: Bool = true) {
    guard delta.isFinite else { return }
    pendingTarget = nil
    if animated {
      let from = motion.animationTarget ?? contentOffset
      motion.animate(to: min(max(from + delta, 0), maximumOffset), from: contentOffset)
    } else {
      motion.stop()
      setOffset(min(max(contentOffset + delta, 0), maximumOffset))
    }
  }

  /// One screen down (towards the end).
  public func pageDown(animated: Bool = true) {
    scroll(by: Double(viewportHeight), animated: animated)
  }

  /// One screen up (towards the start).
  public func pageUp(animated: Bool = true) {
    scroll(by: -Double(viewportHeight), animated: animated)
  }

  /// Brings an item to the top, center or bottom of the viewport, exactly — even when the
  /// rows in between were never measured: the target is resolved again as rows are measured
  /// (each layout pass, and each tick of an animation) until it holds.
  public func scrollToItem(
    _ indexPath: IndexPath, at position: ScrollPosition, animated: Bool = false
  )
    throws(CollectionError)
  {
    reloadIfNeeded()
    guard content.flatIndex(of: indexPath) != nil else { throw .invalidIndexPath(indexPath) }
    scroll(
      to: ScrollTarget(element: .item(indexPath), placement: .position(position)),
      animated: animated)
  }

  /// Scrolls until `target` holds, resolved again as rows are measured.
  func scroll(to target: ScrollTarget, animated: Bool) {
    pendingTarget = target
    if animated {
      motion.animate(to: contentOffset, from: contentOffset)
    } else {
      motion.stop()
    }
    resolvePendingTarget()
    needsLayout = true
  }

  /// Sets the offset directly (clamped), stopping any motion.
  public func setContentOffset(_ offset: Double) {
    guard offset.isFinite else { return }
    pendingTarget = nil
    motion.stop()
    setOffset(min(max(offset, 0), maximumOffset))
  }

  // MARK: time

  /// Advances scroll physics by `milliseconds` of the caller's clock. The engine never reads
  /// the wall clock, so tests and simulators decide what time it is.
  public func tick(by milliseconds: Double) {
    if pendingTarget != nil && motion.isAnimating { resolvePendingTarget() }
    var offset = contentOffset
    let ending = motion.advance(offset: &offset, by: milliseconds, bounds: offsetBounds)
    setOffset(offset)
    switch ending {
    case .deceleration: delegate?.collectionViewDidEndDecelerating(self)
    case .animation:
      if pendingTarget != nil { resolvePendingTarget() }
      delegate?.collectionViewDidEndScrollingAnimation(self)
    case nil: break
    }
  }

  /// The current scroll phase (idle, dragging, decelerating, animating).
  public var scrollPhase: ScrollMotion.Phase { motion.phase }
  /// Whether a drag is in progress.
  public var isDragging: Bool { motion.isDragging }
  /// Whether a fling is coasting.
  public var isDecelerating: Bool { motion.isDecelerating }
}
