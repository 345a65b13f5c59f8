import TesseraPhotoLibrary

/// Culling keys: a rating, a reject or a colour label written into the XMP sidecars of the
/// photos a key acts on (`photosToActOn`: the one shown, the marked ones, or the selected
/// one), off the main actor; the tiles show it when written, the status bar says what was
/// done or why not, and `u` undoes it.
extension GalleryScreen {
  /// The local photos a culling key acts on, by their lasting numbers.
  private var photosToCull: [(item: GalleryItem, index: Int)] {
    photosToActOn.compactMap { item in item.localIndex.map { (item, $0) } }
  }

  func cull(_ change: CullingChange) {
    let photos = photosToCull
    guard let cull = feed.cull, !photos.isEmpty else {
      status.message = "only photos from a folder can be rated and labelled"
      return
    }
    let what = Self.describe(change)
    let count = photos.count == 1 ? "1 photo" : "\(photos.count) photos"
    status.message = "\(what): writing the sidecars of \(count)…"
    Task { [weak self] in
      let outcome = await cull(change, photos.map(\.index))
      guard let self else { return }
      if !outcome.undo.isEmpty { self.choices.undoable.append(.culling(outcome.undo)) }
      self.status.message = Self.sentence(
        done:
          "\(what) on \(outcome.photosChanged == 1 ? "1 photo" : "\(outcome.photosChanged) photos")",
        outcome: outcome, undoable: !outcome.undo.isEmpty)
      self.needsDisplay = true
    }
  }

  /// `x`: rejects, or takes the reject back when every photo it acts on is rejected.
  func cullTogglingReject() {
    let allRejected =
      !photosToCull.isEmpty && photosToCull.allSatisfy { $0.item.local?.isRejected == true }
    cull(.rating(allRejected ? 0 : PhotoCulling.rejected))
  }

  /// `6`–`9`: sets the label, or takes it off when every photo it acts on has it.
  func cullTogglingLabel(_ label: PhotoCulling.Label) {
    let allHaveIt =
      !photosToCull.isEmpty && photosToCull.allSatisfy { $0.item.local?.label == label }
    cull(.label(allHaveIt ? nil : label))
  }

  /// `u`: the last `d` or culling key, undone.
  func undoLastChange() {
    guard let last = choices.undoable.popLast() else {
      // A `d` from before the list was kept (none today), or nothing at all.
      if choices.trashed.isEmpty { status.message = "nothing to undo" } else { untrashPhotos() }
      return
    }
    switch last {
    case .trash: untrashPhotos()
    case .culling(let undo):
      guard let undoCulling = feed.undoCulling else { return }
      status.message =
        "undoing the last change to \(undo.photoCount == 1 ? "1 photo" : "\(undo.photoCount) photos")…"
      Task { [weak self] in
        let outcome = await undoCulling(undo)
        guard let self else { return }
        self.status.message = Self.sentence(
          done: "undone on \(undo.photoCount == 1 ? "1 photo" : "\(undo.photoCount) photos")",
          outcome: outcome, undoable: false)
        self.needsDisplay = true
      }
    }
  }

  /// "★★★", "rejected", "label Red", "no label".
  static func describe(_ change: CullingChange) -> String {
    switch change {
    case .rating(let rating) where rating == PhotoCulling.rejected: "rejected"
    case .rating(0): "unrated"
    case .rating(let rating): String(repeating: "★", count: max(0, min(5, rating)))
    case .label(let label?): "label \(label.name)"
    case .label(nil): "no label"
    case .restore: "restored"
    case .tags(let add, let remove):
      "tags " + TagInput.summary(add: add, remove: remove)
    case .restoreTags: "tags restored"
    }
  }

  private static func sentence(
    done: String, outcome: PhotoLibrary.CullingOutcome, undoable: Bool
  ) -> String {
    guard let failure = outcome.failures.first else {
      return undoable ? "\(done) · u undoes" : done
    }
    return outcome.photosChanged == 0 ? "✗ \(failure)" : "\(done); ✗ \(failure)"
  }
}
