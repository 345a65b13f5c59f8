import Foundation
import Testing

@testable import TesseraImages

@Suite(.timeLimit(.minutes(1))) struct PriorityTests {
  @Test func heldQueueReleasesHigherPrioritiesFirstAndFollowsLiveChanges() async {
    let loader = HeldDataLoader()
    let pipeline = makePipeline(loader, downloads: 1)
    let completions = Completions()
    pipeline.startImageTask(
      with: Fixtures.request("first.png"), completion: completions.handler(0))
    await loader.waitForHeld(1)
    pipeline.startImageTask(
      with: Fixtures.request("low.png", priority: .low), completion: completions.handler(1))
    pipeline.startImageTask(
      with: Fixtures.request("urgent.png", priority: .veryHigh),
      completion: completions.handler(2))
    let promoted = pipeline.startImageTask(
      with: Fixtures.request("promoted.png", priority: .veryLow),
      completion: completions.handler(3))
    promoted.priority = .high
    #expect(promoted.priority == .high)
    for index in 0..<4 {
      await loader.waitForHeld(1)
      loader.release(index, with: .success(Fixtures.ok()))
    }
    await completions.wait(for: 4)
    let order = loader.requests.map(\.url.lastPathComponent)
    #expect(order == ["first.png", "urgent.png", "promoted.png", "low.png"])
  }

  @Test func sharedWorkRunsAtItsMostUrgentSubscribersPriority() async {
    let loader = HeldDataLoader()
    let pipeline = makePipeline(loader, downloads: 1)
    let completions = Completions()
    pipeline.startImageTask(with: Fixtures.request("first.png"), completion: completions.handler(0))
    await loader.waitForHeld(1)
    pipeline.startImageTask(
      with: Fixtures.request("b.png", priority: .normal), completion: completions.handler(1))
    let lowA = pipeline.startImageTask(
      with: Fixtures.request("a.png", priority: .low), completion: completions.handler(2))
    pipeline.startImageTask(
      with: Fixtures.request("a.png", priority: .veryHigh), completion: completions.handler(3))
    lowA.cancel()
    for index in 0..<3 {
      await loader.waitForHeld(1)
      loader.release(index, with: .success(Fixtures.ok()))
    }
    await completions.wait(for: 4)
    #expect(loader.requests.map(\.url.lastPathComponent) == ["first.png", "a.png", "b.png"])
  }

  @Test func downloadsNeverExceedTheLimit() async {
    let loader = HeldDataLoader()
    let pipeline = makePipeline(loader, downloads: 3)
    let completions = Completions()
    for tag in 0..<10 {
      pipeline.startImageTask(
        with: Fixtures.request("\(tag).png"), completion: completions.handler(tag))
    }
    await loader.waitForHeld(3)
    #expect(loader.callCount == 3)
    for index in 0..<10 {
      await loader.wait { $0.calls > index }
      #expect(loader.callCount <= index + 3)
      loader.release(index, with: .success(Fixtures.ok()))
    }
    await completions.wait(for: 10)
    #expect(loader.callCount == 10)
  }
}

@Suite(.timeLimit(.minutes(1))) struct PriorityWorkQueueTests {
  @Test func servesHighestFirstThenArrivalOrder() {
    var queue = PriorityWorkQueue<String>()
    queue.enqueue("a", priority: 1)
    queue.enqueue("b", priority: 3)
    queue.enqueue("c", priority: 1)
    queue.enqueue("d", priority: 3)
    #expect(
      [queue.popFirst(), queue.popFirst(), queue.popFirst(), queue.popFirst()] == [
        "b", "d", "a", "c",
      ])
    #expect(queue.popFirst() == nil)
  }

  @Test func updateAndRemoveTakeEffectWhileWaiting() {
    var queue = PriorityWorkQueue<Int>()
    for key in 0..<100 { queue.enqueue(key, priority: 0) }
    for round in 0..<50 { queue.update(7, priority: round % 5) }  // many stale heap entries
    queue.update(42, priority: 9)
    queue.remove(0)
    #expect(queue.count == 99)
    #expect(queue.popFirst() == 42)
    #expect(queue.popFirst() == 7)  // last update was priority 4
    #expect(queue.popFirst() == 1)
    var rest: [Int] = []
    while let key = queue.popFirst() { rest.append(key) }
    #expect(rest == Array(2..<100).filter { $0 != 7 && $0 != 42 })
  }
}
