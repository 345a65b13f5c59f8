/// A data source that answers from a ``CollectionSnapshot`` and updates the collection view
/// by diffing snapshots: UIKit's `UICollectionViewDiffableDataSource`.
///
/// Create it with the collection view and a cell provider; it makes itself the collection
/// view's `dataSource`. Then ``apply(_:)`` snapshots: the first one reloads, every later one
/// is diffed against the current one by item identity through
/// ``CollectionView/performBatchUpdates(identifiers:reloading:)``. Cells of items that stayed
/// keep their cell (and its image); inserted items get new cells, deleted ones leave; an item
/// whose identifier stayed but whose content changed (`!=`) is configured again by the cell
/// provider.
///
/// The collection view holds its data source weakly, as UIKit's does: keep this object
/// (a property of the screen that shows the collection), or the collection view is left
/// without a data source.
///
/// - Complexity: Answering the collection view is O(1) per call; `apply(_:)` is O(n) in the
///   items of the two snapshots, plus the engine's update (O(n) as well).
@MainActor
public final class CollectionDiffableDataSource<
  SectionID: Hashable & Sendable, Item: Identifiable & Equatable & Sendable
>: CollectionDataSource where Item.ID: Sendable {
  /// The snapshot type this data source applies.
  public typealias Snapshot = CollectionSnapshot<SectionID, Item>

  /// Configures the cell of an item: dequeue it with `dequeueReusableCell(for:)` at the index
  /// path given, set it up for the item, return it.
  public typealias CellProvider =
    @MainActor (_ collectionView: CollectionView, _ indexPath: IndexPath, _ item: Item) ->
    any ReusableView

  /// Configures a supplementary view whose height is above 0. The section identifier is the
  /// section's (nil for the collection's own header and footer, asked with section 0).
  public typealias SupplementaryViewProvider =
    @MainActor (
      _ collectionView: CollectionView, _ kind: SupplementaryKind, _ indexPath: IndexPath,
      _ section: SectionID?
    ) -> (any ReusableView)?

  /// The height of a supplementary view, 0 for none. The section identifier is the section's
  /// (nil for the collection's own header and footer).
  public typealias SupplementaryHeightProvider =
    @MainActor (_ kind: SupplementaryKind, _ section: SectionID?) -> Int

  /// The collection view this data source updates (held strongly: the collection view holds
  /// its data source weakly, so there is no cycle).
  ///
  /// - Complexity: O(1).
  public let collectionView: CollectionView
  /// Configures items' cells.
  ///
  /// - Complexity: O(1) to read or replace; called once per cell configured.
  public var cellProvider: CellProvider
  /// Configures headers and footers; nil for none. Read as views come on screen.
  ///
  /// - Complexity: O(1) to read or replace.
  public var supplementaryViewProvider: SupplementaryViewProvider?
  /// The heights of headers and footers; nil for none. Read when a snapshot is applied.
  ///
  /// - Complexity: O(1) to read or replace; called 2 × sections + 2 times per apply.
  public var supplementaryHeightProvider: SupplementaryHeightProvider?

  private var current = Snapshot()
  private var hasApplied = false

  /// A data source for `collectionView`, which it becomes the `dataSource` of. Keep it: the
  /// collection view holds it weakly.
  ///
  /// - Complexity: O(1).
  public init(
    collectionView: CollectionView,
    supplementaryViewProvider: SupplementaryViewProvider? = nil,
    supplementaryHeightProvider: SupplementaryHeightProvider? = nil,
    cellProvider: @escaping CellProvider
  ) {
    self.collectionView = collectionView
    self.cellProvider = cellProvider
    self.supplementaryViewProvider = supplementaryViewProvider
    self.supplementaryHeightProvider = supplementaryHeightProvider
    collectionView.dataSource = self
  }

  // MARK: snapshots

  /// The snapshot last applied (an empty one before the first `apply(_:)`). Edit the copy it
  /// returns and apply it.
  ///
  /// - Complexity: O(1).
  public func snapshot() -> Snapshot { current }

  /// Shows `snapshot`. The first apply reloads (``BatchUpdate/reloadedEverything``); later
  /// ones diff the items by identity against the current snapshot and update the collection
  /// view in place: inserts, deletes and moves as the returned ``BatchUpdate`` lists them;
  /// kept items whose content changed (`!=`) are in its `reloaded` and get their cell
  /// configured again at the next layout pass. The item at the top of the screen stays put.
  ///
  /// Headers and footers are configured again after every apply, so a section whose
  /// identifier changed shows its new one (and its heights are read again).
  ///
  /// - Throws: What the collection view's update throws, e.g. a count mismatch when another
  ///   object became its `dataSource`; the current snapshot and the screen stay as they were.
  /// - Complexity: O(n + m) for snapshots of n and m items, plus the engine's O(n + m) diff.
  @discardableResult
  public func apply(_ snapshot: Snapshot) throws(CollectionError) -> BatchUpdate {
    let previous = current
    let wasApplied = hasApplied
    current = snapshot
    hasApplied = true
    do {
      guard wasApplied else {
        try collectionView.reloadData(identifiers: snapshot.identifierSections)
        return BatchUpdate(reloadedEverything: true)
      }
      return try collectionView.performBatchUpdates(
        identifiers: snapshot.identifierSections,
        reloading: snapshot.identifiersOfItemsChanged(since: previous))
    } catch {
      current = previous
      hasApplied = wasApplied
      throw error
    }
  }

  // MARK: look-ups

  /// The identifier of the item at `indexPath` in the current snapshot, nil when there is none.
  ///
  /// - Complexity: O(1).
  public func itemIdentifier(for indexPath: IndexPath) -> Item.ID? {
    current.item(at: indexPath)?.id
  }

  /// The item at `indexPath` in the current snapshot, nil when there is none.
  ///
  /// - Complexity: O(1).
  public func item(at indexPath: IndexPath) -> Item? { current.item(at: indexPath) }

  /// The index path of the item with identifier `id` in the current snapshot, nil when there
  /// is none.
  ///
  /// - Complexity: O(1) once the snapshot's table is built (O(n) on the first look-up).
  public func indexPath(for id: Item.ID) -> IndexPath? { current.indexPath(ofItem: id) }

  /// The identifier of the section at `index` in the current snapshot, nil when there is none.
  ///
  /// - Complexity: O(1).
  public func sectionIdentifier(for index: Int) -> SectionID? {
    index >= 0 && index < current.numberOfSections ? current.sectionIdentifiers[index] : nil
  }

  // MARK: CollectionDataSource

  /// The current snapshot's section count.
  ///
  /// - Complexity: O(1).
  public func numberOfSections(in collectionView: CollectionView) -> Int {
    current.numberOfSections
  }

  /// The current snapshot's item count in `section`, 0 for a section it does not have.
  ///
  /// - Complexity: O(1).
  public func collectionView(
    _ collectionView: CollectionView, numberOfItemsInSection section: Int
  ) -> Int {
    section >= 0 && section < current.numberOfSections ? current.sectionItems[section].count : 0
  }

  /// The cell provider's cell for the item at `indexPath`. An index path the snapshot does not
  /// have (which the engine never asks for) gets an empty cell rather than a crash.
  ///
  /// - Complexity: O(1) plus the cell provider.
  public func collectionView(
    _ collectionView: CollectionView, cellForItemAt indexPath: IndexPath
  ) -> any ReusableView {
    guard let item = current.item(at: indexPath) else {
      let empty: MissingItemCell = collectionView.dequeueReusableCell(for: indexPath)
      return empty
    }
    return cellProvider(collectionView, indexPath, item)
  }

  /// The supplementary height provider's answer, 0 without one or for a section the snapshot
  /// does not have.
  ///
  /// - Complexity: O(1) plus the provider.
  public func collectionView(
    _ collectionView: CollectionView, heightForSupplementaryElementOfKind kind: SupplementaryKind,
    inSection section: Int
  ) -> Int {
    guard let supplementaryHeightProvider else { return 0 }
    switch kind {
    case .collectionHeader, .collectionFooter:
      return supplementaryHeightProvider(kind, nil)
    case .sectionHeader, .sectionFooter:
      guard let id = sectionIdentifier(for: section) else { return 0 }
      return supplementaryHeightProvider(kind, id)
    }
  }

  /// The supplementary view provider's view, nil without one.
  ///
  /// - Complexity: O(1) plus the provider.
  public func collectionView(
    _ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: SupplementaryKind,
    at indexPath: IndexPath
  ) -> (any ReusableView)? {
    guard let supplementaryViewProvider else { return nil }
    switch kind {
    case .collectionHeader, .collectionFooter:
      return supplementaryViewProvider(collectionView, kind, indexPath, nil)
    case .sectionHeader, .sectionFooter:
      guard let id = sectionIdentifier(for: indexPath.section) else { return nil }
      return supplementaryViewProvider(collectionView, kind, indexPath, id)
    }
  }
}

/// What a diffable data source hands out for an index path its snapshot lacks.
@MainActor
final class MissingItemCell: ReusableView {
  init() {}
}
