/// Free views by type: a view is created only when none of its type is free, and the free
/// view that left the screen first is handed out first.
///
/// dequeue and enqueue are one dictionary look-up plus O(1) amortized queue work.
@MainActor
final class ReusePool {
  /// The free views of one type, first out the one that left first.
  private final class Queue {
    var views: [any ReusableView] = []
    var head = 0
    var created = 0

    var count: Int { views.count - head }

    func push(_ view: any ReusableView) { views.append(view) }

    func pop() -> (any ReusableView)? {
      guard head < views.count else { return nil }
      let view = views[head]
      head += 1
      if head == views.count {
        views.removeAll(keepingCapacity: true)
        head = 0
      } else if head >= 32 && head * 2 >= views.count {
        views.removeFirst(head)
        head = 0
      }
      return view
    }
  }

  private var queues: [ObjectIdentifier: Queue] = [:]
  private(set) var totalCreated = 0
  private(set) var totalReused = 0

  private func queue(for key: ObjectIdentifier) -> Queue {
    if let queue = queues[key] { return queue }
    let queue = Queue()
    queues[key] = queue
    return queue
  }

  /// A free view of type `View`, after its `prepareForReuse`, or a new one.
  func dequeue<View: ReusableView>(_ type: View.Type) -> (view: View, isNew: Bool) {
    let queue = queue(for: ObjectIdentifier(type))
    if let free = queue.pop() as? View {
      totalReused += 1
      free.prepareForReuse()
      return (free, false)
    }
    totalCreated += 1
    queue.created += 1
    return (View(), true)
  }

  func enqueue(_ view: any ReusableView) {
    queue(for: ObjectIdentifier(type(of: view))).push(view)
  }

  func freeCount<View: ReusableView>(of type: View.Type) -> Int {
    queues[ObjectIdentifier(type)]?.count ?? 0
  }

  func createdCount<View: ReusableView>(of type: View.Type) -> Int {
    queues[ObjectIdentifier(type)]?.created ?? 0
  }
}
