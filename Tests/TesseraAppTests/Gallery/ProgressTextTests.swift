import TesseraFeeds
import TesseraPhotoLibrary
import Testing

@testable import TesseraGallery

/// The status bar's walk progress (its numbers are `CountText`'s).
@Suite struct ProgressTextTests {
  @Test func theWalkThenTheDatesThenNothing() {
    var progress = PhotoLibrary.Progress()
    progress.photosFound = 12_045
    progress.foldersWalked = 96
    #expect(GalleryFeed.progressText(progress) == "walking · 12,045 photos in 96 folders")
    progress.walkFinished = true
    progress.headersRead = 3_000
    #expect(GalleryFeed.progressText(progress) == "reading dates 3,000 of 12,045")
    progress.headersRead = 12_045
    #expect(GalleryFeed.progressText(progress) == nil)
  }
}
