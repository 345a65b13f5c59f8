/// The image of one cell, which never shows a picture that belongs to another item.
///
/// Cells are recycled: the cell that showed item 7 a moment ago may show item 42 now. An
/// image load started for item 7 can still finish after that, and code that sets the
/// finished image on "the cell it started from" puts item 7's picture beside item 42's
/// caption. Checking the index path when the image arrives does not fix it either: an insert
/// or a delete above moves items to other index paths while their images load.
///
/// The slot fixes it with a generation token:
///
/// - `bind` cancels the previous request, bumps the generation and remembers the item's
///   identity; a memory-cache hit is applied before `bind` returns, so a cached image is
///   never preceded by the placeholder; otherwise the placeholder shows until the image
///   arrives. Binding again the item and the (`Hashable`) request whose load is under way
///   keeps that load: a cell configured again because its item's other fields changed does
///   not throw away a download or a decode half done.
/// - A completion carries the generation it was started with; one whose generation is no
///   longer current is dropped, whatever the index paths did meanwhile.
/// - `prepareForReuse` (call it from the cell's) cancels, bumps and shows the placeholder.
///
/// The slot knows nothing of cells or the reuse pool: it is what a cell owns.
///
/// - Complexity: every operation is O(1).
@MainActor
public final class ImageSlot<Image> {
  /// What the slot shows.
  public enum Content {
    /// No image yet: unbound, loading, or reset for reuse.
    case placeholder
    /// The bound item's image.
    case image(Image)
    /// The load failed; the text says why (shown in the cell, retried on the next bind).
    case failed(String)
  }

  /// What the renderer draws.
  public private(set) var content: Content = .placeholder
  /// The item whose image this slot shows or waits for, nil when unbound.
  public private(set) var itemID: AnyHashable?
  /// Bumped by every bind, reuse and cancel; completions of older generations are dropped.
  public private(set) var generation: UInt64 = 0
  /// Called after every change of `content` (the app marks the cell dirty).
  public var onChange: (@MainActor (Content) -> Void)?
  /// Stale completions dropped so far (for statistics and tests).
  package private(set) var droppedCompletions = 0

  private var inFlight: ImageLoadCancellation?
  /// The request of the load under way, when it is `Hashable`.
  private var loadingRequest: AnyHashable?
  /// What the load under way calls with its image (the latest bind's).
  private var onLoadedImage: (@MainActor @Sendable (Image) -> Void)?

  /// An unbound slot showing the placeholder.
  public init() {}

  /// The image shown, nil while the slot shows the placeholder or a failure.
  public var image: Image? {
    if case .image(let image) = content { return image }
    return nil
  }

  /// Why the last load failed, while the slot shows that failure.
  public var failure: String? {
    if case .failed(let reason) = content { return reason }
    return nil
  }

  /// Shows `item`'s image from `loader`. `onImage` runs when the image is applied (at once
  /// on a cache hit, later otherwise) — e.g. to report its shape to the layout.
  public func bind<Loader: ImageLoading>(
    item: AnyHashable, request: Loader.Request, loader: Loader,
    onImage: (@MainActor @Sendable (Image) -> Void)? = nil
  ) where Loader.Image == Image {
    let key = request as? AnyHashable
    if inFlight != nil, itemID == item, let key, key == loadingRequest {
      onLoadedImage = onImage
      return
    }
    cancel()
    itemID = item
    if let cached = loader.cachedImage(for: request) {
      set(.image(cached))
      onImage?(cached)
      return
    }
    set(.placeholder)
    let token = generation
    onLoadedImage = onImage
    loadingRequest = key
    inFlight = loader.loadImage(for: request) { [weak self] result in
      guard let self else { return }
      guard self.generation == token else {
        self.droppedCompletions += 1
        return
      }
      self.inFlight = nil
      self.loadingRequest = nil
      switch result {
      case .success(let image):
        self.set(.image(image))
        let onLoaded = self.onLoadedImage
        self.onLoadedImage = nil
        onLoaded?(image)
      case .failure(let error):
        self.set(.failed(String(describing: error)))
      }
    }
  }

  /// Stops waiting: cancels the request and invalidates its completion. Keeps what shows.
  public func cancel() {
    generation &+= 1
    inFlight?.cancel()
    inFlight = nil
    loadingRequest = nil
    // What the callback holds (a layout, a cell) is not kept for a load that will not come.
    onLoadedImage = nil
  }

  /// For the cell's `prepareForReuse`: cancel, forget the item, show the placeholder.
  public func prepareForReuse() {
    cancel()
    itemID = nil
    set(.placeholder)
  }

  /// Sets the image with no check at all, as naive lazy-loading code does. Exists for the
  /// scroll simulator's "naive" strategy, which measures what that costs; the app never
  /// calls it.
  package func setImageUnchecked(_ image: Image?) {
    set(image.map(Content.image) ?? .placeholder)
  }

  private func set(_ newContent: Content) {
    content = newContent
    onChange?(newContent)
  }
}
