import TesseraPhotoLibrary

/// A photo `d` moved to the Trash: which item it was, and where the Trash keeps its file
/// (and the RAW of a RAW+JPEG pair, the video of a Live Photo).
struct TrashedPhoto: Equatable {
  let itemID: String
  let files: [TrashedFile]
}

/// `d` and `u`: photos to the freedesktop.org Trash and back, as a file manager does it (so
/// GNOME's or KDE's Trash lists and restores them too). The items stay in the feed, hidden,
/// so `u` shows them again where they were.
extension GalleryScreen {
  /// The photos `d` (and a culling key) takes: in the detail view the one shown, in the
  /// compare view the chosen one; else the marked ones shown, or the selected one.
  var photosToActOn: [GalleryItem] {
    if case .detail(let item) = overlay { return [item] }
    if overlay == .compare { return compare.focusedItem.map { [$0] } ?? [] }
    let marked = choices.marks.count == 0 ? [] : feed.items.filter { choices.marks.contains($0.id) }
    if !marked.isEmpty { return marked }
    return feed.items.indices.contains(selected) ? [feed.items[selected]] : []
  }

  /// Moves `photosToTrash` to the Trash; the status bar says how many, or why not. A photo
  /// that cannot be moved stays, and the first reason is shown.
  func trashPhotos() {
    let photos = photosToActOn.filter { $0.local != nil }
    guard !photos.isEmpty else {
      status.message = "only photos from a folder can be moved to the Trash"
      return
    }
    var moved: [TrashedPhoto] = []
    var firstFailure: String?
    for photo in photos {
      guard let local = photo.local else { continue }
      do throws(TrashError) {
        var files = [try services.trash.trash(local.path)]
        // The pair's RAW goes with its JPEG, a Live Photo's video with its image: one photo
        // to the person. Should one stay, the photo is in the Trash all the same, and `u`
        // brings it back.
        for companion in [local.rawCompanionPath, local.motionCompanionPath].compactMap(\.self) {
          do throws(TrashError) {
            files.append(try services.trash.trash(companion))
          } catch {
            firstFailure = firstFailure ?? error.description
          }
        }
        moved.append(TrashedPhoto(itemID: photo.id, files: files))
      } catch {
        firstFailure = firstFailure ?? error.description
      }
    }
    if !moved.isEmpty {
      choices.trashed.append(moved)
      choices.undoable.append(.trash)
      let wasShowing = overlay
      updateFilter { $0.hidden.formUnion(moved.map(\.itemID)) }
      choices.marks.keep(only: feed.itemIDs)
      if case .detail = wasShowing { showSelectedInDetail() }
    }
    let count = moved.count == 1 ? "1 photo" : "\(moved.count) photos"
    status.message =
      if let firstFailure {
        moved.isEmpty ? "✗ \(firstFailure)" : "moved \(count) to the Trash; ✗ \(firstFailure)"
      } else {
        "moved \(count) to the Trash · u puts \(moved.count == 1 ? "it" : "them") back"
      }
  }

  /// Puts the last `d`'s photos back where they were, and shows them again. One that cannot
  /// go back (its place is taken) stays in the Trash, and the status bar says why.
  func untrashPhotos() {
    guard let batch = choices.trashed.popLast() else {
      status.message = "nothing to put back"
      return
    }
    var restored: [String] = []
    var firstFailure: String?
    for photo in batch {
      // The photo shows again when its own file is back; its RAW and its Live Photo's video
      // are restored beside it.
      for (index, file) in photo.files.enumerated() {
        do throws(TrashError) {
          try services.trash.restore(file)
          if index == 0 { restored.append(photo.itemID) }
        } catch {
          firstFailure = firstFailure ?? error.description
        }
      }
    }
    updateFilter { $0.hidden.subtract(restored) }
    if let first = restored.first, let index = feed.itemIDs.firstIndex(of: first) {
      selected = index
      if case .detail = overlay { showSelectedInDetail() }
    }
    let count = restored.count == 1 ? "1 photo" : "\(restored.count) photos"
    status.message = firstFailure.map { "put back \(count); ✗ \($0)" } ?? "put back \(count)"
  }
}
