/// Loads a feed for the interface and keeps its view models (an MVVM view-model controller,
/// with paging, refresh and typed failures).
///
/// Lives on the main actor; fetching and parsing run off it. Every fetch carries a generation
/// number: a refresh supersedes whatever was in flight, cancelling it (its download stops),
/// and a superseded answer is dropped, never applied over newer data. Cancelling the task
/// that called `load`, `refresh` or `loadNextPage` cancels its fetch too.
/// `viewModel(at:)` is O(1) and bounds-checked.
@MainActor
public final class FeedController<Source: FeedSource> {
  /// Where the feed stands.
  public enum State: Equatable, Sendable {
    case idle
    case loading
    case loaded
    /// A sentence a person understands: "Can't retrieve photos: the server answered 500".
    case failed(String)
  }

  /// What changed, so a view updates only what it must.
  public enum Change: Equatable, Sendable {
    case state
    /// Every item may have changed (first load, refresh).
    case replaced
    /// New items at these indices (next page).
    case appended(Range<Int>)
  }

  public let source: Source
  public private(set) var state: State = .idle
  /// The typed error behind `.failed`, for code that reacts to kinds of failure.
  public private(set) var lastError: FeedError?
  public private(set) var viewModels: [Source.Item] = []
  /// Entries of the loaded pages that were left out, and why.
  public private(set) var skipped: [SkippedItem] = []
  /// Called on the main actor after every change.
  public var onChange: (@MainActor (Change) -> Void)?

  private var nextPage: Int?
  private var generation = 0
  private var inFlight = false
  /// The fetch under way, cancelled when a newer one supersedes it.
  private var current: Task<Result<FeedPage<Source.Item>, FeedError>, Never>?

  public init(source: Source) {
    self.source = source
  }

  public var count: Int { viewModels.count }
  public var hasMorePages: Bool { nextPage != nil }

  public func viewModel(at index: Int) -> Source.Item? {
    viewModels.indices.contains(index) ? viewModels[index] : nil
  }

  /// Fetches the first page, unless items are already loaded or a fetch is under way.
  public func load() async {
    guard !inFlight, viewModels.isEmpty else { return }
    await fetchFirstPage()
  }

  /// Fetches the first page anew, superseding any fetch under way. Items stay visible while
  /// it runs; on failure they stay, and the state says what went wrong.
  public func refresh() async {
    await fetchFirstPage()
  }

  /// Appends the next page, if there is one and nothing else is being fetched.
  public func loadNextPage() async {
    guard !inFlight, let page = nextPage else { return }
    let (token, result) = await fetch(page: page)
    guard token == generation else { return }
    inFlight = false
    switch result {
    case .success(let fetched):
      let start = viewModels.count
      viewModels += fetched.items
      skipped += fetched.skipped
      nextPage = fetched.items.isEmpty ? nil : fetched.nextPage
      lastError = nil
      setState(.loaded)
      if !fetched.items.isEmpty { onChange?(.appended(start..<viewModels.count)) }
    case .failure(let error):
      fail(error)
    }
  }

  private func fetchFirstPage() async {
    let (token, result) = await fetch(page: 1)
    guard token == generation else { return }
    inFlight = false
    switch result {
    case .success(let fetched):
      viewModels = fetched.items
      skipped = fetched.skipped
      nextPage = fetched.nextPage
      lastError = nil
      setState(.loaded)
      onChange?(.replaced)
    case .failure(let error):
      fail(error)
    }
  }

  /// Runs one fetch as its own task, after cancelling the one it supersedes; answers the
  /// fetch's generation with its result.
  private func fetch(page: Int) async -> (Int, Result<FeedPage<Source.Item>, FeedError>) {
    current?.cancel()
    generation += 1
    let token = generation
    inFlight = true
    setState(.loading)
    let source = source
    let task = Task { await Self.fetchOffMain(source, page: page) }
    current = task
    let result = await withTaskCancellationHandler {
      await task.value
    } onCancel: {
      task.cancel()
    }
    if token == generation { current = nil }
    return (token, result)
  }

  private func fail(_ error: FeedError) {
    guard error != .cancelled else {
      // The caller gave up; that is no failure to show. What was shown stays.
      lastError = nil
      setState(viewModels.isEmpty ? .idle : .loaded)
      return
    }
    lastError = error
    setState(.failed(error.message(retrieving: source.noun)))
  }

  private func setState(_ new: State) {
    guard new != state else { return }
    state = new
    onChange?(.state)
  }

  /// Runs the source on the concurrent executor: never on the main actor.
  @concurrent
  private nonisolated static func fetchOffMain(
    _ source: Source, page: Int
  ) async -> Result<FeedPage<Source.Item>, FeedError> {
    do {
      return .success(try await source.fetch(page: page))
    } catch {
      return .failure(error)
    }
  }
}
