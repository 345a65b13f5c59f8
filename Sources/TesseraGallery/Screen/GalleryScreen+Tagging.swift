import TesseraTerminal

/// The tag prompt's keys (`#`): tags typed into the status bar are added to (or, with `-`,
/// removed from) the sidecars of the photos a culling key acts on; `u` undoes it.
extension GalleryScreen {
  func startTagging() {
    guard feed.cull != nil, !photosToActOn.isEmpty else {
      status.message = "only photos from a folder can be tagged"
      return
    }
    modes.tagInput = TagInput(vocabulary: feed.tagVocabulary?() ?? [])
  }

  /// A key while `#` takes tags: typing, Backspace, Tab completes, Enter writes, Esc
  /// cancels; Ctrl-C still quits.
  func handleTagInput(_ key: Key) -> Command {
    guard var input = modes.tagInput else { return .none }
    switch key {
    case .control("c"): return perform(.interrupt)
    case .escape:
      modes.tagInput = nil
    case .enter:
      modes.tagInput = nil
      let (add, remove) = input.change
      if !add.isEmpty || !remove.isEmpty { cull(.tags(add: add, remove: remove)) }
    case .tab:
      input.complete()
      modes.tagInput = input
    case .backspace:
      if !input.typed.isEmpty { input.typed.removeLast() }
      modes.tagInput = input
    case .character(let character):
      input.typed.append(character)
      modes.tagInput = input
    default: break
    }
    needsDisplay = true
    return .none
  }
}
