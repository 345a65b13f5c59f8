/// URLSession and the main queue as `naive` and `seed` use them: a download task per call
/// (no coalescing), at most `connectionsPerHost` running and the rest waiting first come
/// first served, completion handlers on a background queue; `DispatchQueue.main.async`
/// blocks run in order when the main thread next gets to them (the next frame).
/// O(1) per call; O(waiting) memory.
@MainActor
final class ModelledSession {
  typealias Completion = @MainActor (_ succeeded: Bool) -> Void

  private(set) var network: SimulatedNetwork
  private let context: StrategyContext
  private var waiting: [(source: PhotoSource, done: Completion)] = []
  private var waitingHead = 0
  private var running: [Int: Completion] = [:]
  private var mainQueue: [@MainActor () -> Void] = []

  init(context: StrategyContext) {
    self.context = context
    network = SimulatedNetwork(
      model: context.configuration.network, seed: context.configuration.seed)
  }

  /// Queues a download; `done` runs on the "download thread" when it finishes.
  func download(_ source: PhotoSource, done: @escaping Completion) throws(SimulationError) {
    waiting.append((source, done))
    try startWaiting()
  }

  func async(_ block: @escaping @MainActor () -> Void) { mainQueue.append(block) }

  /// Runs the network to `time` (starting queued downloads as connections free up), then
  /// the main queue.
  func run(upTo time: Double) throws(SimulationError) {
    while let completion = network.nextCompletion(upTo: time) {
      let done = running.removeValue(forKey: completion.id)
      try startWaiting()
      done?(completion.succeeded)
    }
    let blocks = mainQueue
    mainQueue.removeAll(keepingCapacity: true)
    for block in blocks { block() }
  }

  private func startWaiting() throws(SimulationError) {
    while running.count < context.configuration.network.connectionsPerHost,
      waitingHead < waiting.count
    {
      let next = waiting[waitingHead]
      waitingHead += 1
      let size = try context.library.bytes(for: next.source).bytes.count
      let id = network.start(url: next.source.url, item: next.source.item, bytes: size)
      running[id] = next.done
    }
    if waitingHead > 1024 && waitingHead * 2 > waiting.count {
      waiting.removeFirst(waitingHead)
      waitingHead = 0
    }
  }
}
