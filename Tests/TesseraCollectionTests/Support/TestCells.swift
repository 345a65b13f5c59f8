import TesseraCollection

/// A cell with text, an optional self-sized height and an image slot; it logs its own resets.
@MainActor
final class TestCell: ReusableView {
  var item: Int?
  /// What `preferredHeight(forWidth:)` answers; nil keeps the layout's size.
  var height: Int?
  /// When set, the height is the number of `width`-wide lines this many characters wrap to.
  var textLength: Int?
  private(set) var prepareCount = 0
  let imageSlot = ImageSlot<TestImage>()
  /// Every change of the slot's content, with the item the cell showed then.
  var imageHistory: [(item: Int?, content: ImageSlot<TestImage>.Content)] = []

  required init() {
    imageSlot.onChange = { [unowned self] content in
      self.imageHistory.append((self.item, content))
    }
  }

  func prepareForReuse() {
    prepareCount += 1
    item = nil
    height = nil
    textLength = nil
    imageSlot.prepareForReuse()
  }

  func preferredHeight(forWidth width: Int) -> Int? {
    if let textLength { return max(1, (textLength + max(1, width) - 1) / max(1, width)) }
    return height
  }
}

/// A second cell type, to show the pool keeps types apart.
@MainActor
final class OtherCell: ReusableView {
  var item: Int?
  required init() {}
}

@MainActor
final class HeaderView: ReusableView {
  var section: Int?
  var kind: SupplementaryKind?
  required init() {}
  func prepareForReuse() { section = nil }
}
