/// The vertical stack shared by grid and waterfall: collection header, then per section its
/// header, body and footer, then the collection footer.
///
/// Rebuilding the section tops is O(sections) from the first changed section; finding the
/// section at a y is O(log sections).
struct SectionStack {
  private(set) var content = SectionedContent.empty
  private(set) var bodyHeights: [Int] = []
  /// `sectionTops[s]` is where section `s` (its header) starts; the last entry is the top of
  /// the collection footer.
  private(set) var sectionTops: [Int] = [0]

  init() {}

  mutating func reset(_ content: SectionedContent, bodyHeights: [Int]) {
    self.content = content
    self.bodyHeights = bodyHeights
    sectionTops = [content.collectionHeaderHeight]
    sectionTops.reserveCapacity(content.sectionCount + 1)
    for section in 0..<content.sectionCount {
      sectionTops.append(sectionTops[section] + sectionHeight(section))
    }
  }

  /// A section's body changed height: everything below it moves, nothing above.
  mutating func setBodyHeight(_ height: Int, of section: Int) {
    guard bodyHeights[section] != height else { return }
    bodyHeights[section] = height
    for next in section..<content.sectionCount {
      sectionTops[next + 1] = sectionTops[next] + sectionHeight(next)
    }
  }

  private func sectionHeight(_ section: Int) -> Int {
    content.sectionHeaderHeights[section] + bodyHeights[section]
      + content.sectionFooterHeights[section]
  }

  var contentHeight: Int { sectionTops[sectionTops.count - 1] + content.collectionFooterHeight }

  func bodyTop(_ section: Int) -> Int {
    sectionTops[section] + content.sectionHeaderHeights[section]
  }

  /// From section `section`'s header to its footer, nil when it does not exist. O(1).
  func extent(ofSection section: Int) -> Range<Int>? {
    guard section >= 0, section < content.sectionCount else { return nil }
    return sectionTops[section]..<sectionTops[section + 1]
  }

  /// The sections whose extent (header to footer) intersects `band`.
  func sections(intersecting band: Range<Int>) -> Range<Int> {
    let count = content.sectionCount
    guard count > 0 else { return 0..<0 }
    let first = firstSection(endingAfter: band.lowerBound)
    var last = first
    while last < count && sectionTops[last] < band.upperBound { last += 1 }
    return first..<last
  }

  /// The first section whose bottom is below `y` (count if none). O(log sections).
  private func firstSection(endingAfter y: Int) -> Int {
    var low = 0
    var high = content.sectionCount
    while low < high {
      let mid = (low + high) / 2
      if sectionTops[mid + 1] > y { high = mid } else { low = mid + 1 }
    }
    return low
  }

  /// The frame of a supplementary view, nil when absent (zero height).
  func frame(of kind: SupplementaryKind, section: Int, width: Int) -> Rect? {
    let height = content.height(of: kind, section: section)
    guard height > 0 else { return nil }
    switch kind {
    case .collectionHeader:
      return Rect(x: 0, y: 0, width: width, height: height)
    case .collectionFooter:
      return Rect(x: 0, y: sectionTops[sectionTops.count - 1], width: width, height: height)
    case .sectionHeader:
      guard section >= 0, section < content.sectionCount else { return nil }
      return Rect(x: 0, y: sectionTops[section], width: width, height: height)
    case .sectionFooter:
      guard section >= 0, section < content.sectionCount else { return nil }
      return Rect(
        x: 0, y: bodyTop(section) + bodyHeights[section], width: width, height: height)
    }
  }

  /// Appends the elements intersecting `band`: supplementary views from here, items from
  /// `items(section, band)`.
  func elements(
    intersecting band: Range<Int>, width: Int, into elements: inout [LayoutElement],
    items: (Int, inout [LayoutElement]) -> Void
  ) {
    appendIfVisible(.collectionHeader, section: 0, band: band, width: width, into: &elements)
    for section in sections(intersecting: band) {
      appendIfVisible(.sectionHeader, section: section, band: band, width: width, into: &elements)
      items(section, &elements)
      appendIfVisible(.sectionFooter, section: section, band: band, width: width, into: &elements)
    }
    appendIfVisible(.collectionFooter, section: 0, band: band, width: width, into: &elements)
  }

  private func appendIfVisible(
    _ kind: SupplementaryKind, section: Int, band: Range<Int>, width: Int,
    into elements: inout [LayoutElement]
  ) {
    if let frame = frame(of: kind, section: section, width: width), frame.intersects(band) {
      elements.append(LayoutElement(id: .supplementary(kind, section: section), frame: frame))
    }
  }
}
