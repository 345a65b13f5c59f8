import Dispatch
import TesseraPhotoLibrary
import TesseraUtilities

/// A walk the test drives: each `release` hands over one batch; the walk waits in between.
package final class ControlledWalker: FileWalking, @unchecked Sendable {
  private let queue = Locked<[WalkBatch]>([])
  private let ready = DispatchSemaphore(value: 0)

  package init() {}

  package func release(_ batch: WalkBatch) {
    queue.withLock { $0.append(batch) }
    ready.signal()
  }

  package func walk(_ deliver: (WalkBatch) -> Bool) {
    while true {
      ready.wait()
      guard let batch = queue.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return }
      if !deliver(batch) || batch.finished { return }
    }
  }
}

/// Headers from a table, optionally held at a gate until the test opens it; records the paths
/// in the order they were read.
package final class TableHeaderReader: PhotoHeaderReading, @unchecked Sendable {
  package let headers: [String: PhotoHeader]
  /// What each sidecar (by path) says.
  package let sidecars: [String: PhotoCulling]
  private let gate = DispatchSemaphore(value: 0)
  private let held: Bool
  /// The paths read, photos' and sidecars'.
  package let readOrder = Locked<[String]>([])

  package init(
    _ headers: [String: PhotoHeader], sidecars: [String: PhotoCulling] = [:], held: Bool = false
  ) {
    self.headers = headers
    self.sidecars = sidecars
    self.held = held
  }

  package func culling(ofSidecarAt path: String) -> PhotoCulling? {
    readOrder.withLock { $0.append(path) }
    return sidecars[path]
  }

  /// Lets `count` more header reads through.
  package func open(_ count: Int) { for _ in 0..<count { gate.signal() } }

  package func header(ofFileAt path: String) -> PhotoHeader? {
    if held { gate.wait() }
    readOrder.withLock { $0.append(path) }
    return headers[path]
  }
}
