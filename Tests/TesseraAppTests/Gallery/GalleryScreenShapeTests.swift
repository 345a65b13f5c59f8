import TesseraFeeds
import TesseraImages
import TesseraPhotoLibrary
import TesseraTestSupport
import Testing

@testable import TesseraGallery

/// The screen holds what every mode shares and no more (issue 33: a dozen stored properties
/// at most); a mode's state lives in `GalleryModes` and its own types.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct GalleryScreenShapeTests {
  @Test func theScreenKeepsAtMostADozenStoredProperties() {
    let feed = GalleryFeed(title: "photos in /p") {
      PhotoLibrary(walker: ControlledWalker(), headerReader: TableHeaderReader([:]))
    }
    let screen = GalleryScreen(
      feed: feed, pipeline: ImagePipeline(configuration: .init(diskCache: nil)), layout: .grid,
      columns: 4, width: 100, height: 40, cellPixels: PixelSize(width: 1, height: 2))
    let stored = Mirror(reflecting: screen).children.compactMap(\.label)
    #expect(stored.count <= 12, "GalleryScreen stores \(stored.count): \(stored)")
    // The modes' state is not spread over the screen again.
    for modeState in ["filterInput", "slideshow", "keyHandlerPending", "picking", "statusMessage"] {
      #expect(!stored.contains(modeState), "\(modeState) is a stored property of the screen")
    }
  }
}
