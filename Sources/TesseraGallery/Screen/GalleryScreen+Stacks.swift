import Foundation
import TesseraImages
import TesseraTerminal

/// Bursts as stacks (`BurstStacks`, `StackState`): once the walk has read every date, the
/// photos taken within two seconds of each other have their thumbnails hashed (through the
/// pipeline, as a tile asks for them, at a low priority), and each run that looks alike shows
/// as its first photo with a count. `S` opens the stack under the selection, or closes it.
extension GalleryScreen {
  /// The thumbnail size hashed: the camera's embedded thumbnail serves it, no full decode.
  nonisolated static let stackHashPixels = PixelSize(width: 96, height: 96)

  /// Groups the feed's photos again (after the walk, a rating, a reload); thumbnails not yet
  /// hashed are hashed first, off the main actor, and this runs again when they are.
  func restack() {
    guard stacks.enabled, !feed.state.isLoading, feed.progressText == nil,
      stacks.hashTask == nil
    else { return }
    let items = feed.allItems
    let runs = BurstStacks.candidateRuns(taken: items.map(\.takenSeconds))
    let unhashed = runs.flatMap { run in
      items[run].filter { stacks.hashes[$0.id] == nil && !stacks.unhashable.contains($0.id) }
    }
    guard unhashed.isEmpty else { return hash(unhashed) }
    var found: [String: [String]] = [:]
    var stackOf: [String: String] = [:]
    for run in runs {
      let hashes = items[run].map { stacks.hashes[$0.id] }
      for stack in BurstStacks.stacks(in: run, hashes: hashes) {
        let ids = items[stack].map(\.id)
        found[ids[0]] = ids
        for id in ids { stackOf[id] = ids[0] }
      }
    }
    stacks.stacks = found
    stacks.stackOf = stackOf
    stacks.opened.formIntersection(found.keys)
    applyStacks()
  }

  /// Hides what the closed stacks hold; the selection stays on its photo, or on its stack.
  private func applyStacks() {
    let hidden = stacks.hiddenByClosedStacks
    guard hidden != feed.filter.stacked else {
      needsDisplay = true
      return
    }
    let selectedID = feed.items.indices.contains(selected) ? feed.items[selected].id : nil
    updateFilter { $0.stacked = hidden }
    if let selectedID {
      let shown = hidden.contains(selectedID) ? stacks.stackOf[selectedID] : selectedID
      if let index = feed.items.firstIndex(where: { $0.id == shown }) { selected = index }
    }
    needsDisplay = true
  }

  private func hash(_ items: [GalleryItem]) {
    stacks.hashing = (0, items.count)
    let pipeline = loader.pipeline
    let source = feed.imageSource
    let requests = items.map { item in
      (
        item.id,
        item.imageURL(
          coveringWidth: Self.stackHashPixels.width, height: Self.stackHashPixels.height
        ).map {
          ImageRequest(
            url: $0, targetSize: Self.stackHashPixels, contentMode: .aspectFit, priority: .low,
            source: source)
        }
      )
    }
    stacks.hashTask = Task { [weak self] in
      for (done, (id, request)) in requests.enumerated() {
        guard !Task.isCancelled else { return }
        // A photo that cannot be decoded gets no hash, and so stacks with nothing.
        var hash: PerceptualHash?
        if let request, let image = try? await pipeline.image(for: request) {
          hash = await Task.detached(priority: .utility) { PerceptualHash(of: image) }.value
        }
        guard let self else { return }
        if let hash { self.stacks.hashes[id] = hash } else { self.stacks.unhashable.insert(id) }
        self.stacks.hashing = (done + 1, requests.count)
        self.needsDisplay = true
      }
      guard let self else { return }
      self.stacks.hashing = nil
      self.stacks.hashTask = nil
      self.restack()
    }
  }

  /// `S`: opens the stack the selected photo heads, or closes the open one it is in.
  func toggleStack() {
    guard feed.items.indices.contains(selected) else { return }
    let id = feed.items[selected].id
    guard let first = stacks.stackOf[id] else {
      status.message =
        stacks.enabled
        ? "not in a stack: a stack is photos taken within \(BurstStacks.maxGapSeconds) s that look alike"
        : "stacks are off (--no-stacks)"
      return
    }
    if stacks.opened.contains(first) {
      stacks.opened.remove(first)
    } else {
      stacks.opened.insert(first)
    }
    applyStacks()
    if !stacks.opened.contains(first),
      let index = feed.items.firstIndex(where: { $0.id == first })
    {
      selected = index  // closed: the stack's tile
    }
  }
}
