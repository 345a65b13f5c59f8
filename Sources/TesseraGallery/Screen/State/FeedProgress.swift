/// What the screen has learnt from the feed so far: whether it has answered once (an empty
/// screen says "loading" until then), which items were last announced as on screen, the
/// shapes of images that have arrived, and the bursts their thumbnails make.
struct FeedProgress {
  /// False until the first answer from the feed.
  var hasLoadedOnce = false
  /// The items last announced to the feed as on screen (see `announceVisibleItems`).
  var announcedItems = 0..<0
  /// Height / width of images that have arrived, by item id, so a layout switch or reload
  /// places them at once.
  var knownHeightsPerWidth: [String: Double] = [:]
  /// Bursts shown as stacks, and which are open.
  var stacks = StackState()
}
