import TesseraCollection
import TesseraImageBinding
import TesseraImages
import TesseraTestSupport
import Testing

import struct Foundation.CharacterSet
import class Foundation.FileManager
import struct Foundation.URL

// The README's Swift snippets and the TesseraCollection catalog's snippet that binds cells to
// the image pipeline, as code that must compile. They are not run (they would reach the
// network). `readmeSnippetsAreCompiledHere` below fails when a README snippet is not found
// here (import lines aside), so the README cannot drift from the API.
//
// Foundation's URL is imported alone: its IndexPath would make the snippets' ambiguous.

/// A feed's photo, as the snippets assume one.
struct FeedPhoto: Sendable {
  var id: String
  var url: URL
}

/// A cell with an image slot, as the snippets assume one.
@MainActor final class ThumbnailCell: ReusableView {
  let slot = ImageSlot<Image>()
  init() {}
  func prepareForReuse() { slot.prepareForReuse() }
}

// MARK: - README.md: Using Tessera as a library

private func readmeLoadAnImage(url: URL) async throws {
  let image = try await ImagePipeline.shared.image(for: url)
  print(image.width, image.height)
}

@MainActor private func readmeBindCells(
  cell: ThumbnailCell, photo: FeedPhoto, photos: [FeedPhoto],
  indexPaths: [TesseraCollection.IndexPath]
) {
  let images = CollectionImageBinder<String>()  // over ImagePipeline.shared
  // collectionView(_:cellForItemAt:)
  images.bind(cell.slot, item: photo.id, request: ImageRequest(url: photo.url))
  // collectionView(_:prefetchItemsAt:) and (_:cancelPrefetchingForItemsAt:)
  images.prefetchItems(at: indexPaths) {
    (photos[$0.item].id, ImageRequest(url: photos[$0.item].url))
  }
  images.cancelPrefetchingItems(at: indexPaths) { photos[$0.item].id }
}

// MARK: - TesseraCollection.docc/GettingStarted.md: Binding images through the pipeline

@MainActor
final class PhotoGrid: CollectionDataSource {
  var photos: [FeedPhoto] = []
  let images = CollectionImageBinder<String>()

  func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int
  {
    photos.count
  }

  func collectionView(
    _ collectionView: CollectionView, cellForItemAt indexPath: IndexPath
  ) -> any ReusableView {
    let photo = photos[indexPath.item]
    let cell: ThumbnailCell = collectionView.dequeueReusableCell(for: indexPath)
    images.bind(cell.slot, item: photo.id, request: request(for: photo))
    return cell
  }

  func collectionView(_ collectionView: CollectionView, prefetchItemsAt indexPaths: [IndexPath]) {
    images.prefetchItems(at: indexPaths) { (photos[$0.item].id, request(for: photos[$0.item])) }
  }

  func collectionView(
    _ collectionView: CollectionView, cancelPrefetchingForItemsAt indexPaths: [IndexPath]
  ) {
    images.cancelPrefetchingItems(at: indexPaths) { photos[$0.item].id }
  }

  // The same request for a prefetch and for the cell that follows it.
  private func request(for photo: FeedPhoto) -> ImageRequest {
    ImageRequest(
      url: photo.url, targetSize: PixelSize(width: 240, height: 240), contentMode: .aspectFill)
  }
}

@MainActor private func statusLine(images: CollectionImageBinder<String>) -> String {
  let loader = images.loader
  return "\(loader.loaded) loaded, \(loader.inFlight) loading, \(loader.failed) failed"
}

// MARK: - The check

@Suite(.timeLimit(.minutes(1))) struct ReadmeSnippetTests {
  private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// Each ```swift block of the README, without its import lines, appears in this file as it
  /// is, whitespace aside.
  @Test func readmeSnippetsAreCompiledHere() throws {
    let here = URL(fileURLWithPath: #filePath)
    let code = MarkdownSnippets.squeezed(try String(contentsOf: here, encoding: .utf8))
    let readme = try String(
      contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    let snippets = MarkdownSnippets.swiftBlocks(in: readme)
    #expect(snippets.count >= 2)
    for snippet in snippets {
      let body = snippet.split(separator: "\n", omittingEmptySubsequences: false)
        .filter { !$0.hasPrefix("import ") }.joined(separator: "\n")
      #expect(
        code.contains(MarkdownSnippets.squeezed(body)),
        "not in DocumentationTests.swift:\n\(snippet)")
    }
  }
}
