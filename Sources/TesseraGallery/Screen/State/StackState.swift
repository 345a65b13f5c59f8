import TesseraImages

/// The bursts shown as stacks (`BurstStacks`): which photos each holds, which are open (`S`),
/// and the thumbnails' hashes computed so far.
struct StackState {
  /// `--no-stacks` turns them off: every frame shows.
  var enabled = true
  /// Every stack, by its first photo's id: the ids of its photos in the order shown.
  var stacks: [String: [String]] = [:]
  /// The stack each photo is in, by the photo's id (its first photo's id).
  var stackOf: [String: String] = [:]
  /// Stacks opened with `S`, by their first photo's id.
  var opened: Set<String> = []
  /// Hashes of the thumbnails of photos taken close together, by id.
  var hashes: [String: PerceptualHash] = [:]
  /// Photos whose thumbnail could not be decoded: never in a stack, never asked again.
  var unhashable: Set<String> = []
  /// Hashing the thumbnails still needed: done and to do, for the status bar.
  var hashing: (done: Int, of: Int)?
  var hashTask: Task<Void, Never>?

  /// The ids a closed stack hides: all but each closed stack's first.
  var hiddenByClosedStacks: Set<String> {
    var hidden = Set<String>()
    for (first, ids) in stacks where !opened.contains(first) { hidden.formUnion(ids.dropFirst()) }
    return hidden
  }

  /// "▣5" on a closed stack's first photo, "▣" on each photo of an open one; nil outside.
  /// (▣ is in DejaVu Sans Mono and Noto Sans Mono; ⧉, the first choice, drew as a box.)
  func badge(for id: String) -> String? {
    guard let first = stackOf[id], let ids = stacks[first] else { return nil }
    return opened.contains(first) ? "▣" : "▣\(ids.count)"
  }
}
