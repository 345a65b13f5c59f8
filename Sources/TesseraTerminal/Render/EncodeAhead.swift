import Dispatch
import TesseraUtilities

/// Image encodings made ahead of the frame that sends them, on other threads, so the run loop
/// never stops for one (issue 34: a kitty palette PNG of a 380×280 tile takes 75 ms; on the
/// loop it held every key that came meanwhile, and no byte went out while it ran, so the link
/// idled between tiles). A layer asks for what its visible tiles will need
/// (``request(_:work:)``), takes what is done (``take(_:)``) when the link has room for it, and
/// says each frame what is still wanted (``keep(only:)``): the rest is dropped before it runs.
///
/// Work runs in the order asked, at most ``concurrency`` at a time, on the ``Executor``:
/// ``Executor/inline`` runs it within ``request(_:work:)`` (the result is there at once, as if
/// encoded on the caller's thread), ``Executor/background`` on Dispatch's user-initiated
/// threads. `onReady` is called after each result, on the thread that made it: the owner draws
/// again then.
///
/// - Complexity: ``request(_:work:)`` and ``take(_:)`` are O(1) amortized
///   (the queue is scanned from its head, and jobs only leave it); ``keep(only:)`` is
///   O(entries). Memory: the results asked for and not yet taken, each a tile's encoding.
final class EncodeAhead<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  /// Where the work runs.
  struct Executor: Sendable {
    let run: @Sendable (@escaping @Sendable () -> Void) -> Void
    /// Whether work asked for early runs beside the caller (``EncodeAhead/asksAhead``).
    var runsBeside = true

    /// On the caller's thread, before ``EncodeAhead/request(_:work:)`` returns.
    static var inline: Executor { Executor(run: { $0() }, runsBeside: false) }

    /// On Dispatch's global user-initiated threads (where the pipeline decodes too).
    static var background: Executor {
      Executor { DispatchQueue.global(qos: .userInitiated).async(execute: $0) }
    }
  }

  private struct Job {
    let key: Key
    let work: @Sendable () -> Value
  }

  private struct State {
    var queue: [Job] = []
    var head = 0
    var running: Set<Key> = []
    var ready: [Key: Value] = [:]
    /// Every key asked for since the last ``keep(only:)`` that kept it.
    var wanted: Set<Key> = []
    var workers = 0

    mutating func nextJob() -> Job? {
      while head < queue.count {
        let job = queue[head]
        head += 1
        if head > 32, head * 2 > queue.count {
          queue.removeFirst(head)
          head = 0
        }
        // A key dropped and asked for again is queued twice: it runs once.
        if wanted.contains(job.key), ready[job.key] == nil, !running.contains(job.key) {
          return job
        }
      }
      return nil
    }
  }

  private let state = Locked(State())
  private let executor: Executor
  let concurrency: Int
  private let onReady: @Sendable () -> Void

  init(
    executor: Executor, concurrency: Int = 2, onReady: @escaping @Sendable () -> Void = {}
  ) {
    self.executor = executor
    self.concurrency = max(1, concurrency)
    self.onReady = onReady
  }

  /// Whether to ask for work before its result is needed: only where it runs beside the
  /// caller. Inline, asking early would move every tile's encoding into the first frame.
  var asksAhead: Bool { executor.runsBeside }

  /// Asks for `work`'s result under `key`, unless it is asked for, running or done already.
  func request(_ key: Key, work: @escaping @Sendable () -> Value) {
    let startsWorker = state.withLock { state -> Bool in
      guard state.wanted.insert(key).inserted else { return false }
      state.queue.append(Job(key: key, work: work))
      guard state.workers < concurrency else { return false }
      state.workers += 1
      return true
    }
    if startsWorker { executor.run { [self] in drain() } }
  }

  /// The result under `key` if it is done, handed over (a second take finds nothing).
  func take(_ key: Key) -> Value? {
    state.withLock { state in
      guard let value = state.ready.removeValue(forKey: key) else { return nil }
      state.wanted.remove(key)
      return value
    }
  }

  /// Drops every request and result not under `keys`: what left the screen. Work already
  /// running finishes, and its result is dropped.
  func keep(only keys: Set<Key>) {
    state.withLock { state in
      state.wanted.formIntersection(keys)
      state.ready = state.ready.filter { keys.contains($0.key) }
    }
  }

  /// Runs queued jobs until none is left; one of at most ``concurrency``.
  private func drain() {
    while let job = state.withLock({ state -> Job? in
      guard let job = state.nextJob() else {
        state.workers -= 1
        return nil
      }
      state.running.insert(job.key)
      return job
    }) {
      let value = job.work()
      state.withLock { state in
        state.running.remove(job.key)
        if state.wanted.contains(job.key) { state.ready[job.key] = value }
      }
      onReady()
    }
  }
}
