/// Free views by type: a view is created only when none of its type is free, and the free
/// view that left the screen first is handed out first.
///
/// dequeue and enqueue are O(free views of that type), which is at most the number of views
/// on screen at once.
@MainActor
final class ReusePool {
  private var free: [ObjectIdentifier: [any ReusableView]] = [:]
  private(set) var createdCount: [ObjectIdentifier: Int] = [:]
  private(set) var totalCreated = 0
  private(set) var totalReused = 0

  /// A free view of type `View`, after its `prepareForReuse`, or a new one.
  func dequeue<View: ReusableView>(_ type: View.Type) -> (view: View, isNew: Bool) {
    let key = ObjectIdentifier(type)
    if var views = free[key], !views.isEmpty, let view = views.removeFirst() as? View {
      free[key] = views
      totalReused += 1
      view.prepareForReuse()
      return (view, false)
    }
    totalCreated += 1
    createdCount[key, default: 0] += 1
    return (View(), true)
  }

  func enqueue(_ view: any ReusableView) {
    free[ObjectIdentifier(type(of: view)), default: []].append(view)
  }

  func freeCount<View: ReusableView>(of type: View.Type) -> Int {
    free[ObjectIdentifier(type)]?.count ?? 0
  }

  func createdCount<View: ReusableView>(of type: View.Type) -> Int {
    createdCount[ObjectIdentifier(type)] ?? 0
  }
}
