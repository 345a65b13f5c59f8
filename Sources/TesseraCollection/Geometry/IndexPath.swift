/// The position of an item: its section and its index within that section, as in UIKit.
public struct IndexPath: Hashable, Comparable, Sendable, CustomStringConvertible {
  public var section: Int
  public var item: Int

  public init(item: Int, section: Int) {
    self.item = item
    self.section = section
  }

  public static func < (lhs: IndexPath, rhs: IndexPath) -> Bool {
    (lhs.section, lhs.item) < (rhs.section, rhs.item)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(section &* 0x1_0000_0001 &+ item)
  }

  public var description: String { "[\(section), \(item)]" }
}
