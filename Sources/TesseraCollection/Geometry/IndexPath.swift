/// The position of an item: its section and its index within that section, as in UIKit.
public struct IndexPath: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The section, from 0.
  public var section: Int
  /// The item within its section, from 0.
  public var item: Int

  /// The position of `item` in `section`.
  public init(item: Int, section: Int) {
    self.item = item
    self.section = section
  }

  /// Section first, then item: the order items are laid out in.
  public static func < (lhs: IndexPath, rhs: IndexPath) -> Bool {
    (lhs.section, lhs.item) < (rhs.section, rhs.item)
  }

  /// One word per index path, so dictionary look-ups hash once.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(section &* 0x1_0000_0001 &+ item)
  }

  /// `[section, item]`.
  public var description: String { "[\(section), \(item)]" }
}
