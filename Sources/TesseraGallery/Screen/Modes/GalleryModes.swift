/// What has the keyboard, and each mode's own state: the overlay on top of the grid (help,
/// the detail view, the month index), the filter prompt while `/` takes a query, the Ctrl-x
/// prefix waiting for a key-handler key, the slideshow, the info panel (which takes only `i`
/// and Esc: every other key goes on to the overlay or the grid under it). Keys go to the innermost mode that
/// takes them (`GalleryScreen.handle(_:)`: the prefix, then the prompt, then the keymaps of
/// the overlay and the grid, `GalleryKeymap.chain(for:)`). A new mode is a new file with its
/// state and keys, and a field here.
@MainActor
struct GalleryModes {
  /// The overlay shown over the grid; `.none` while browsing.
  var overlay = GalleryScreen.Overlay.none
  /// While `/` takes the query as typed: what is typed so far.
  var filterInput: String?
  /// While `#` takes tags as typed.
  var tagInput: TagInput?
  /// The query `n`/`N` look for: the last one typed, kept after Esc shows everything again.
  var lastQuery = ""
  /// Ctrl-x was pressed: the next key goes to the key-handler.
  var awaitsKeyHandlerKey = false
  /// The slideshow: the running one, its pace, and whether it starts with the first photo.
  var slideshow = SlideshowMode()
  /// The info panel (`i`), over whichever overlay is shown; nil when closed.
  var info: InfoPanelMode?
  /// The compare view's photos, slots and zoom (`c`), while `overlay` is `.compare`.
  let compare = CompareOverlay()
}
