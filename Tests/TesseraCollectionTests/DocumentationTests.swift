import TesseraCollection
import TesseraTestSupport
import Testing

import struct Foundation.CharacterSet
import class Foundation.FileManager
import struct Foundation.URL

// Every code snippet of the TesseraCollection documentation (the DocC catalog in
// Sources/TesseraCollection/TesseraCollection.docc), as code that must compile; the snippet
// that binds images through the pipeline is in TesseraImageBindingTests' DocumentationTests.
// `documentationSnippetsAreCompiledHere` below fails when a snippet of the catalog is found
// in neither file, so the documentation cannot drift from the API.
//
// Only three Foundation types are imported, for the check: the snippets spell `IndexPath`,
// which is TesseraCollection's as long as Foundation's own is not imported beside it.

// MARK: - What the snippets assume

/// The app's model: what a feed gives.
struct Photo: Identifiable, Equatable, Sendable {
  var id: String
  var title: String
  var thumbnailURL: String
}

/// The app's decoded image.
struct Thumbnail: Sendable {
  var width: Int
  var height: Int
}

/// The app's own download and decoding.
private func downloadThumbnail(_ url: String) async throws -> Thumbnail {
  Thumbnail(width: 1, height: 1)
}

/// The app's renderer.
@MainActor private func draw(_ cell: any ReusableView, in frame: Rect) {}

// MARK: - TesseraCollection.md

@MainActor private func landingPage(photoList: PhotoList) throws {
  let collectionView = CollectionView(
    layout: ListLayout(estimatedItemHeight: 3), width: 80, height: 24)
  collectionView.dataSource = photoList
  try collectionView.reloadData(identifiers: [photoList.photos.map(\.id)])

  // Every frame:
  collectionView.tick(by: 16)  // scroll physics, on your clock (milliseconds)
  collectionView.layoutIfNeeded()  // recycle, dequeue and configure, measure, prefetch
  for visible in collectionView.visibleCells {
    draw(visible.cell, in: visible.frame)
  }
}

// MARK: - GettingStarted.md: A cell

@MainActor
final class PhotoCell: ReusableView {
  var title = ""
  let thumbnail = ImageSlot<Thumbnail>()

  init() {}

  func prepareForReuse() {
    title = ""
    thumbnail.prepareForReuse()  // cancels the old load, shows the placeholder
  }
}

// MARK: A data source

@MainActor
final class PhotoList: CollectionDataSource {
  var photos: [Photo] = []
  let loader = ThumbnailLoader()

  func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int
  {
    photos.count
  }

  func collectionView(
    _ collectionView: CollectionView, cellForItemAt indexPath: IndexPath
  ) -> any ReusableView {
    let photo = photos[indexPath.item]
    let cell: PhotoCell = collectionView.dequeueReusableCell(for: indexPath)
    cell.title = photo.title
    cell.thumbnail.bind(item: photo.id, request: photo.thumbnailURL, loader: loader)
    return cell
  }
}

// MARK: A layout

@MainActor private func chooseALayout(photoList: PhotoList) throws -> CollectionView {
  let grid = GridLayout(columns: .adaptive(minimumWidth: 20), spacing: 1, heightPerWidth: 0.75)
  let collectionView = CollectionView(layout: grid, width: 80, height: 24)
  collectionView.register(PhotoCell.self)
  collectionView.dataSource = photoList
  try collectionView.reloadData(identifiers: [photoList.photos.map(\.id)])
  return collectionView
}

@MainActor private func otherLayouts(collectionView: CollectionView) {
  // Full-width rows that measure themselves with `preferredHeight(forWidth:)`:
  collectionView.layout = ListLayout(estimatedItemHeight: 3)
  // Columns of items with their own shapes, placed in the shortest column:
  collectionView.layout = WaterfallLayout(columns: 3, spacing: 1, defaultHeightPerWidth: 1)
}

// MARK: Driving frames

@MainActor private func onInput(collectionView: CollectionView) throws {
  collectionView.scroll(by: 3)  // a wheel notch or an arrow key: animated, presses add up
  collectionView.beginDrag()
  collectionView.drag(by: 12)
  collectionView.endDrag(velocity: 0.8)  // units per millisecond: a fling
  try collectionView.scrollToItem(IndexPath(item: 500, section: 0), at: .top)
}

@MainActor private func onResize(collectionView: CollectionView, columns: Int, rows: Int) {
  collectionView.setViewport(width: columns, height: rows)  // the top item stays on top
}

@MainActor private func whenTheFeedChanges(
  collectionView: CollectionView, photoList: PhotoList, fresh: [Photo]
) throws {
  photoList.photos = fresh
  let update = try collectionView.performBatchUpdates(identifiers: [fresh.map(\.id)])
  print("\(update.inserted.count) new photos")  // cells of kept photos keep their images
}

// MARK: Snapshots

/// The screen that shows the collection, and keeps its data source.
@MainActor
final class PhotoScreen {
  var dataSource: CollectionDiffableDataSource<String, Photo>?
}

@MainActor private func showASnapshot(
  collectionView: CollectionView, screen: PhotoScreen, photos: [Photo]
) throws {
  let dataSource = CollectionDiffableDataSource<String, Photo>(collectionView: collectionView) {
    collectionView, indexPath, photo in
    let cell: PhotoCell = collectionView.dequeueReusableCell(for: indexPath)
    cell.title = photo.title
    return cell
  }
  screen.dataSource = dataSource  // the collection view holds its data source weakly: keep it

  var snapshot = CollectionSnapshot<String, Photo>()
  try snapshot.appendSections(["recent"])
  try snapshot.appendItems(photos)
  try dataSource.apply(snapshot)  // the first apply reloads
}

@MainActor private func applyAnEditedSnapshot(
  dataSource: CollectionDiffableDataSource<String, Photo>, removed: Photo, retitled: Photo
) throws {
  var next = dataSource.snapshot()
  try next.deleteItems([removed.id])
  try next.updateItems([retitled])  // the same id with a new title: its cell is configured again
  let update = try dataSource.apply(next)  // inserts, deletes and moves, by identity
  print("\(update.deleted.count) removed, \(update.reloaded.count) retitled")
}

// MARK: Binding images

@MainActor
final class ThumbnailLoader: ImageLoading {
  private var cache: [String: Thumbnail] = [:]

  func cachedImage(for url: String) -> Thumbnail? { cache[url] }

  func loadImage(
    for url: String,
    completion: @escaping @MainActor @Sendable (Result<Thumbnail, any Error>) -> Void
  ) -> ImageLoadCancellation {
    let download = Task {
      do {
        let thumbnail = try await downloadThumbnail(url)
        cache[url] = thumbnail
        completion(.success(thumbnail))
      } catch {
        completion(.failure(error))
      }
    }
    return ImageLoadCancellation { download.cancel() }
  }
}

@MainActor private func showWhatTheSlotHolds(cell: PhotoCell) {
  switch cell.thumbnail.content {
  case .placeholder: print("…")
  case .image(let thumbnail): print("\(thumbnail.width)×\(thumbnail.height)")
  case .failed(let reason): print("✗ \(reason)")
  }
}

@MainActor private func widenThePrefetchWindow(collectionView: CollectionView) {
  collectionView.prefetchWindow = PrefetchWindow(aheadScreens: 2, behindScreens: 1)
}

// MARK: - The check

@Suite(.timeLimit(.minutes(1))) struct CollectionDocumentationSnippetTests {
  private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// Each ```swift block of the catalog, without its import lines, appears in one of the
  /// documentation test files as it is, whitespace aside (the formatter may indent or wrap
  /// it differently there).
  @Test func documentationSnippetsAreCompiledHere() throws {
    let catalog = Self.root.appendingPathComponent(
      "Sources/TesseraCollection/TesseraCollection.docc")
    let pages = try FileManager.default.contentsOfDirectory(
      at: catalog, includingPropertiesForKeys: nil
    ).filter { $0.pathExtension == "md" }
    #expect(pages.count >= 2)
    let code = try [
      "Tests/TesseraCollectionTests/DocumentationTests.swift",
      "Tests/TesseraCollectionTests/SelectionDocumentationTests.swift",
      "Tests/TesseraImageBindingTests/DocumentationTests.swift",
    ].map {
      MarkdownSnippets.squeezed(
        try String(contentsOf: Self.root.appendingPathComponent($0), encoding: .utf8))
    }
    var snippets = 0
    for page in pages {
      for snippet in MarkdownSnippets.swiftBlocks(in: try String(contentsOf: page, encoding: .utf8))
      {
        snippets += 1
        let body = snippet.split(separator: "\n", omittingEmptySubsequences: false)
          .filter { !$0.hasPrefix("import ") }.joined(separator: "\n")
        #expect(
          code.contains { $0.contains(MarkdownSnippets.squeezed(body)) },
          "not in a DocumentationTests.swift (\(page.lastPathComponent)):\n\(snippet)")
      }
    }
    #expect(snippets >= 8)
  }
}
