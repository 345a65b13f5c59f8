import TesseraUtilities

/// What a collection shows at one moment, by identity: its sections' identifiers and each
/// section's items, in order. UIKit's `NSDiffableDataSourceSnapshot`, with the items
/// themselves as values: an item keeps its identity through `Item.ID`, and a change of its
/// content (`!=`) is what ``CollectionDiffableDataSource/apply(_:)`` reconfigures.
///
/// Edits are validated: a duplicate section or item identifier, an unknown section or an
/// unknown item throws a ``CollectionError`` and leaves the snapshot as it was.
///
/// ```swift
/// var snapshot = CollectionSnapshot<String, Photo>()
/// try snapshot.appendSections(["recent"])
/// try snapshot.appendItems(photos)
/// ```
///
/// A snapshot is a value: edit a copy (``CollectionDiffableDataSource/snapshot()``) and apply
/// it. Looking up an item by identifier uses an identifier → index path table built on the
/// first look-up (or edit) and shared by copies until one of them edits its items; appending
/// keeps it up to date.
///
/// - Complexity: Storage O(sections + items); each method states its own cost, where n is
///   the number of items and the table is the identifier → index path table (built in O(n)
///   when an operation needs it and no copy has built it since the last edit that dropped it).
public struct CollectionSnapshot<
  SectionID: Hashable & Sendable, Item: Identifiable & Equatable & Sendable
>: Sendable, Equatable where Item.ID: Sendable {
  typealias Positions = [Item.ID: IndexPath]

  /// The sections' identifiers, in order.
  ///
  /// - Complexity: O(1).
  public private(set) var sectionIdentifiers: [SectionID] = []
  /// The items of each section, parallel to `sectionIdentifiers`.
  private(set) var sectionItems: [[Item]] = []
  /// Section identifier → its index, kept up to date by every edit.
  private var sectionIndices: [SectionID: Int] = [:]
  /// The number of items in all sections.
  ///
  /// - Complexity: O(1).
  public private(set) var numberOfItems = 0
  /// Item identifier → index path, nil until first needed; copies share it until one edits.
  private var positionCache = Locked<Positions?>(nil)

  /// An empty snapshot: no sections, no items.
  ///
  /// - Complexity: O(1).
  public init() {}

  /// Two snapshots are equal when they have the same sections, in the same order, with equal
  /// items in the same order.
  ///
  /// - Complexity: O(sections + items).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.sectionIdentifiers == rhs.sectionIdentifiers && lhs.sectionItems == rhs.sectionItems
  }

  // MARK: reading

  /// The number of sections.
  ///
  /// - Complexity: O(1).
  public var numberOfSections: Int { sectionIdentifiers.count }

  /// The identifiers of all items, section by section.
  ///
  /// - Complexity: O(n).
  public var itemIdentifiers: [Item.ID] { sectionItems.flatMap { $0.map(\.id) } }

  /// The items of the section `section`, in order.
  ///
  /// - Throws: ``CollectionError/unknownSection(_:)``.
  /// - Complexity: O(1) (the array is shared, not copied).
  public func items(inSection section: SectionID) throws(CollectionError) -> [Item] {
    sectionItems[try index(of: section)]
  }

  /// The identifiers of the items of the section `section`, in order.
  ///
  /// - Throws: ``CollectionError/unknownSection(_:)``.
  /// - Complexity: O(items in the section).
  public func itemIdentifiers(inSection section: SectionID) throws(CollectionError) -> [Item.ID] {
    sectionItems[try index(of: section)].map(\.id)
  }

  /// The number of items in the section `section`.
  ///
  /// - Throws: ``CollectionError/unknownSection(_:)``.
  /// - Complexity: O(1).
  public func numberOfItems(inSection section: SectionID) throws(CollectionError) -> Int {
    sectionItems[try index(of: section)].count
  }

  /// The index of the section `section`, nil when the snapshot has no such section.
  ///
  /// - Complexity: O(1).
  public func indexOfSection(_ section: SectionID) -> Int? { sectionIndices[section] }

  /// The index path of the item with identifier `id`, nil when the snapshot has no such item.
  ///
  /// - Complexity: O(1) once the table is built (O(n) on the first look-up after an edit that
  ///   dropped it).
  public func indexPath(ofItem id: Item.ID) -> IndexPath? { withPositions { $0[id] } }

  /// The item at `indexPath`, nil when there is none.
  ///
  /// - Complexity: O(1).
  public func item(at indexPath: IndexPath) -> Item? {
    guard indexPath.section >= 0, indexPath.section < sectionItems.count, indexPath.item >= 0,
      indexPath.item < sectionItems[indexPath.section].count
    else { return nil }
    return sectionItems[indexPath.section][indexPath.item]
  }

  /// The item with identifier `id`, nil when the snapshot has no such item.
  ///
  /// - Complexity: O(1) once the table is built, as `indexPath(ofItem:)`.
  public func item(withIdentifier id: Item.ID) -> Item? {
    indexPath(ofItem: id).map { sectionItems[$0.section][$0.item] }
  }

  /// The identifier of the section holding the item with identifier `id`, nil when the
  /// snapshot has no such item.
  ///
  /// - Complexity: O(1) once the table is built, as `indexPath(ofItem:)`.
  public func sectionIdentifier(containingItem id: Item.ID) -> SectionID? {
    indexPath(ofItem: id).map { sectionIdentifiers[$0.section] }
  }

  // MARK: editing sections

  /// Adds sections after the last one, empty.
  ///
  /// - Throws: ``CollectionError/duplicateSectionIdentifier(_:)`` when a section already has
  ///   one of `identifiers`, or it appears twice in them; nothing is added then.
  /// - Complexity: O(k), k the number of sections added.
  public mutating func appendSections(_ identifiers: [SectionID]) throws(CollectionError) {
    var added = Set<SectionID>(minimumCapacity: identifiers.count)
    for id in identifiers where sectionIndices[id] != nil || !added.insert(id).inserted {
      throw .duplicateSectionIdentifier(String(describing: id))
    }
    for id in identifiers {
      sectionIndices[id] = sectionIdentifiers.count
      sectionIdentifiers.append(id)
      sectionItems.append([])
    }
  }

  /// Removes sections and all their items.
  ///
  /// - Throws: ``CollectionError/unknownSection(_:)`` when one of `identifiers` is not a
  ///   section of the snapshot; nothing is removed then.
  /// - Complexity: O(sections + items in the removed sections and in the sections after the
  ///   first removed one).
  public mutating func deleteSections(_ identifiers: [SectionID]) throws(CollectionError) {
    var doomed = Set<Int>(minimumCapacity: identifiers.count)
    for id in identifiers { doomed.insert(try index(of: id)) }
    guard let first = doomed.min() else { return }
    var table = takePositions()
    defer { storePositions(table) }
    for section in doomed {
      for item in sectionItems[section] { table[item.id] = nil }
      numberOfItems -= sectionItems[section].count
    }
    var keptIDs: [SectionID] = []
    var keptItems: [[Item]] = []
    keptIDs.reserveCapacity(sectionIdentifiers.count - doomed.count)
    keptItems.reserveCapacity(sectionIdentifiers.count - doomed.count)
    for section in sectionIdentifiers.indices where !doomed.contains(section) {
      keptIDs.append(sectionIdentifiers[section])
      keptItems.append(sectionItems[section])
    }
    sectionIdentifiers = keptIDs
    sectionItems = keptItems
    sectionIndices = [:]
    for (index, id) in sectionIdentifiers.enumerated() { sectionIndices[id] = index }
    for section in first..<sectionItems.count {
      Self.reindex(&table, sectionItems[section], section: section, from: 0)
    }
  }

  // MARK: editing items

  /// Adds items at the end of the section `section`, by default the last section.
  ///
  /// - Throws: ``CollectionError/unknownSection(_:)``, ``CollectionError/noSections`` (no
  ///   section given and the snapshot has none), ``CollectionError/duplicateIdentifier(_:at:)``
  ///   (an item's identifier is already in the snapshot or appears twice in `items`, at the
  ///   index path it would have had); nothing is added then.
  /// - Complexity: O(k) amortized, k the number of items added, once the table is built.
  public mutating func appendItems(
    _ items: [Item], toSection section: SectionID? = nil
  ) throws(CollectionError) {
    let index: Int
    if let section {
      index = try self.index(of: section)
    } else {
      guard !sectionItems.isEmpty else { throw .noSections }
      index = sectionItems.count - 1
    }
    var table = takePositions()
    defer { storePositions(table) }
    let start = sectionItems[index].count
    try Self.checkNew(items, against: table, at: IndexPath(item: start, section: index))
    for (offset, item) in items.enumerated() {
      table[item.id] = IndexPath(item: start + offset, section: index)
    }
    sectionItems[index].append(contentsOf: items)
    numberOfItems += items.count
  }

  /// Inserts items just before the item with identifier `anchor`, in its section.
  ///
  /// - Throws: ``CollectionError/unknownItem(_:)`` for an unknown anchor,
  ///   ``CollectionError/duplicateIdentifier(_:at:)`` as `appendItems(_:toSection:)`; nothing
  ///   is inserted then.
  /// - Complexity: O(k + items after the anchor in its section), once the table is built.
  public mutating func insertItems(
    _ items: [Item], beforeItem anchor: Item.ID
  ) throws(CollectionError) {
    try insertItems(items, nextTo: anchor, after: false)
  }

  /// Inserts items just after the item with identifier `anchor`, in its section.
  ///
  /// - Throws: As `insertItems(_:beforeItem:)`.
  /// - Complexity: O(k + items after the anchor in its section), once the table is built.
  public mutating func insertItems(
    _ items: [Item], afterItem anchor: Item.ID
  ) throws(CollectionError) {
    try insertItems(items, nextTo: anchor, after: true)
  }

  /// Removes items by identifier (an identifier given twice is removed once).
  ///
  /// - Throws: ``CollectionError/unknownItem(_:)`` when one of `identifiers` is not in the
  ///   snapshot; nothing is removed then.
  /// - Complexity: O(k + items in the sections that lose items), once the table is built.
  public mutating func deleteItems(_ identifiers: [Item.ID]) throws(CollectionError) {
    var table = takePositions()
    defer { storePositions(table) }
    // The first removed position in each section that loses items.
    var firstRemoved: [Int: Int] = [:]
    for id in identifiers {
      guard let path = table[id] else { throw .unknownItem(String(describing: id)) }
      firstRemoved[path.section] = min(firstRemoved[path.section] ?? path.item, path.item)
    }
    let doomed = Set(identifiers)
    for (section, first) in firstRemoved {
      sectionItems[section].removeAll { doomed.contains($0.id) }
      Self.reindex(&table, sectionItems[section], section: section, from: first)
    }
    for id in doomed { table[id] = nil }
    numberOfItems -= doomed.count
  }

  /// Removes every item and every section.
  ///
  /// - Complexity: O(1) (the storage is released as it would be on any assignment).
  public mutating func deleteAllItems() {
    self = Self()
  }

  /// Moves the item with identifier `id` just before the item with identifier `anchor`,
  /// which may be in another section.
  ///
  /// - Throws: ``CollectionError/unknownItem(_:)`` for an unknown item or anchor,
  ///   ``CollectionError/itemMovedRelativeToItself(_:)`` when they are the same; nothing moves
  ///   then.
  /// - Complexity: O(items in the two sections concerned), once the table is built.
  public mutating func moveItem(_ id: Item.ID, beforeItem anchor: Item.ID) throws(CollectionError) {
    try moveItem(id, nextTo: anchor, after: false)
  }

  /// Moves the item with identifier `id` just after the item with identifier `anchor`, which
  /// may be in another section.
  ///
  /// - Throws: As `moveItem(_:beforeItem:)`.
  /// - Complexity: O(items in the two sections concerned), once the table is built.
  public mutating func moveItem(_ id: Item.ID, afterItem anchor: Item.ID) throws(CollectionError) {
    try moveItem(id, nextTo: anchor, after: true)
  }

  /// Replaces items by new values with the same identifiers, where they are: their identity
  /// stays, so applying the snapshot reconfigures their cells (when the content differs)
  /// instead of deleting and inserting them.
  ///
  /// - Throws: ``CollectionError/unknownItem(_:)`` when an item's identifier is not in the
  ///   snapshot; nothing is replaced then.
  /// - Complexity: O(k), once the table is built.
  public mutating func updateItems(_ items: [Item]) throws(CollectionError) {
    let paths = withPositions { table in items.map { table[$0.id] } }
    for (item, path) in zip(items, paths) where path == nil {
      throw .unknownItem(String(describing: item.id))
    }
    for (item, path) in zip(items, paths) {
      guard let path else { continue }
      sectionItems[path.section][path.item] = item
    }
  }

  // MARK: internals

  /// The items' identifiers section by section, as the engine's batch updates take them.
  ///
  /// - Complexity: O(sections + items).
  var identifierSections: [[Item.ID]] { sectionItems.map { $0.map(\.id) } }

  /// The identifiers of the items of `self` that `old` also has, with other content.
  ///
  /// - Complexity: O(n + old's n), O(n) once old's table is built.
  func identifiersOfItemsChanged(since old: Self) -> Set<Item.ID> {
    old.withPositions { oldTable in
      var changed = Set<Item.ID>()
      for items in sectionItems {
        for item in items {
          guard let path = oldTable[item.id] else { continue }
          if old.sectionItems[path.section][path.item] != item { changed.insert(item.id) }
        }
      }
      return changed
    }
  }

  /// The index of the section `section`.
  ///
  /// - Complexity: O(1).
  private func index(of section: SectionID) throws(CollectionError) -> Int {
    guard let index = sectionIndices[section] else {
      throw .unknownSection(String(describing: section))
    }
    return index
  }

  private mutating func insertItems(
    _ items: [Item], nextTo anchor: Item.ID, after: Bool
  ) throws(CollectionError) {
    var table = takePositions()
    defer { storePositions(table) }
    guard let path = table[anchor] else { throw .unknownItem(String(describing: anchor)) }
    let start = path.item + (after ? 1 : 0)
    try Self.checkNew(items, against: table, at: IndexPath(item: start, section: path.section))
    sectionItems[path.section].insert(contentsOf: items, at: start)
    Self.reindex(&table, sectionItems[path.section], section: path.section, from: start)
    numberOfItems += items.count
  }

  private mutating func moveItem(
    _ id: Item.ID, nextTo anchor: Item.ID, after: Bool
  ) throws(CollectionError) {
    var table = takePositions()
    defer { storePositions(table) }
    guard let from = table[id] else { throw .unknownItem(String(describing: id)) }
    guard let target = table[anchor] else { throw .unknownItem(String(describing: anchor)) }
    guard id != anchor else { throw .itemMovedRelativeToItself(String(describing: id)) }
    let item = sectionItems[from.section].remove(at: from.item)
    var to = target.item
    if target.section == from.section && target.item > from.item { to -= 1 }
    if after { to += 1 }
    sectionItems[target.section].insert(item, at: to)
    if target.section == from.section {
      Self.reindex(
        &table, sectionItems[from.section], section: from.section, from: min(from.item, to))
    } else {
      Self.reindex(&table, sectionItems[from.section], section: from.section, from: from.item)
      Self.reindex(&table, sectionItems[target.section], section: target.section, from: to)
    }
  }

  /// Throws on the first of `items` whose identifier is in `table` already or earlier in
  /// `items`, naming the index path it would have had (`items[0]` going to `start`).
  ///
  /// - Complexity: O(k).
  private static func checkNew(
    _ items: [Item], against table: Positions, at start: IndexPath
  ) throws(CollectionError) {
    var seen = Set<Item.ID>(minimumCapacity: items.count)
    for (offset, item) in items.enumerated()
    where table[item.id] != nil || !seen.insert(item.id).inserted {
      throw .duplicateIdentifier(
        String(describing: item.id),
        at: IndexPath(item: start.item + offset, section: start.section))
    }
  }

  /// Writes the index paths of `items[start...]` (section `section`) into `table`.
  ///
  /// - Complexity: O(items.count - start).
  private static func reindex(
    _ table: inout Positions, _ items: [Item], section: Int, from start: Int
  ) {
    for index in start..<items.count {
      table[items[index].id] = IndexPath(item: index, section: section)
    }
  }

  /// Every item's index path.
  ///
  /// - Complexity: O(sections + items).
  private static func positions(of sections: [[Item]]) -> Positions {
    var table = Positions(minimumCapacity: sections.reduce(0) { $0 + $1.count })
    for (section, items) in sections.enumerated() {
      for (index, item) in items.enumerated() {
        table[item.id] = IndexPath(item: index, section: section)
      }
    }
    return table
  }

  /// Runs `body` with the table, building it first when no copy has since the last edit that
  /// dropped it. Safe from any thread: the cache is behind a lock.
  ///
  /// - Complexity: O(1) plus `body`, or O(sections + items) when the table is built.
  func withPositions<Result>(_ body: (Positions) -> Result) -> Result {
    positionCache.withLock { cache in
      if let table = cache { return body(table) }
      let table = Self.positions(of: sectionItems)
      cache = table
      return body(table)
    }
  }

  /// The table, for this copy to edit and store back: moved out of the cache when no other
  /// copy shares it (so editing it copies nothing), else copied, this copy then getting a
  /// cache of its own.
  ///
  /// - Complexity: O(1), or O(sections + items) when the table is built or shared.
  private mutating func takePositions() -> Positions {
    if isKnownUniquelyReferenced(&positionCache) {
      let items = sectionItems
      return positionCache.withLock { cache in
        let table = cache ?? Self.positions(of: items)
        cache = nil
        return table
      }
    }
    let table = withPositions { $0 }
    positionCache = Locked(nil)
    return table
  }

  /// Puts the edited table back into this copy's cache.
  ///
  /// - Complexity: O(1).
  private func storePositions(_ table: Positions) {
    positionCache.withLock { $0 = table }
  }
}
