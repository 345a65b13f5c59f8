/// The image of one cell, with a generation token so a late image can never land in a cell
/// that moved on (seeds 000 and 003's race), without comparing index paths.
///
/// - `bind` cancels the previous request, bumps the generation and remembers the item's
///   identity; a memory-cache hit is applied before `bind` returns, so a cached image is
///   never preceded by the placeholder; otherwise the placeholder shows until the image
///   arrives.
/// - A completion carries the generation it was started with; a stale one is dropped.
/// - `prepareForReuse` (call it from the cell's) cancels, bumps and shows the placeholder.
///
/// The slot knows nothing of cells or the reuse pool: it is what a cell owns. All O(1).
@MainActor
public final class ImageSlot<Image> {
  public enum Content {
    case placeholder
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
  public private(set) var droppedCompletions = 0

  private var inFlight: ImageLoadCancellation?

  public init() {}

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
    cancel()
    itemID = item
    if let cached = loader.cachedImage(for: request) {
      set(.image(cached))
      onImage?(cached)
      return
    }
    set(.placeholder)
    let token = generation
    inFlight = loader.loadImage(for: request) { [weak self] result in
      guard let self else { return }
      guard self.generation == token else {
        self.droppedCompletions += 1
        return
      }
      self.inFlight = nil
      switch result {
      case .success(let image):
        self.set(.image(image))
        onImage?(image)
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
  }

  /// For the cell's `prepareForReuse`: cancel, forget the item, show the placeholder.
  public func prepareForReuse() {
    cancel()
    itemID = nil
    set(.placeholder)
  }

  /// Sets the image with no check at all — what seed 000's naive code does. Exists for the
  /// scroll simulator's "naive" strategy; the app never calls it.
  public func setImageUnchecked(_ image: Image?) {
    set(image.map(Content.image) ?? .placeholder)
  }

  private func set(_ newContent: Content) {
    content = newContent
    onChange?(newContent)
  }
}
