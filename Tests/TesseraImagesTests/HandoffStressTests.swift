import Foundation
import TesseraUtilities
import Testing

@testable import TesseraImages

/// A loader that answers every call at once, on the calling thread.
private struct InstantLoader: DataLoading {
  let answer: @Sendable (DataRequest) -> Result<DataResponse, ImagePipelineError>

  func loadData(for request: DataRequest) async throws(ImagePipelineError) -> DataResponse {
    try answer(request).get()
  }
}

/// The handoff between the core completing a task and `ImagePipeline` handing that
/// completion to its `ImageTask`: work that finishes while the task is being created must
/// still be delivered, once.
@Suite(.timeLimit(.minutes(1))) struct HandoffStressTests {
  /// Thousands of tasks whose loads fail at once on the cooperative pool, so completions
  /// race the caller that is still creating each task. A lost completion never arrives and
  /// the suite's time limit fails the test; a doubled one is counted.
  @Test func everyTaskCompletesExactlyOnceWhenWorkFinishesDuringTheHandoff() async {
    let loader = InstantLoader { _ in .failure(.networkFailed("instant")) }
    let pipeline = makePipeline(loader, memory: nil, downloads: 64)
    let starters = 8
    let perStarter = 2_500
    let count = starters * perStarter
    let deliveries = Locked([Int](repeating: 0, count: count))
    let collector = Completions()
    // Several threads start tasks at once while completions arrive on others: more threads
    // than cores, so a thread is often preempted mid-handoff, which is where a two-step
    // handoff loses a completion.
    DispatchQueue.concurrentPerform(iterations: starters) { starter in
      for offset in 0..<perStarter {
        let index = starter * perStarter + offset
        let record = collector.handler(index)
        pipeline.startImageTask(with: Fixtures.request("handoff-\(index)")) { result in
          deliveries.withLock { $0[index] += 1 }
          record(result)
        }
      }
    }
    await collector.wait(for: count)
    #expect(deliveries.withLock { $0.allSatisfy { $0 == 1 } })
    #expect(collector.all.allSatisfy { $0.error == .networkFailed("instant") })
    #expect(pipeline.statistics.tasksCompleted == count)
  }
}
