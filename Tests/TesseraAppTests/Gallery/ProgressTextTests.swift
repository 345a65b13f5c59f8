import TesseraFeeds
import TesseraPhotoLibrary
import Testing

@testable import TesseraGallery

/// The status bar's walk progress: numbers grouped by threes, as the rest of the screen
/// writes them, without Foundation's locale formatter.
@Suite struct ProgressTextTests {
  @Test(arguments: [
    (0, "0"), (7, "7"), (999, "999"), (1_000, "1,000"), (1_204, "1,204"), (100_000, "100,000"),
    (1_000_000, "1,000,000"), (-1_234, "-1,234"), (Int.max, "9,223,372,036,854,775,807"),
    (Int.min, "-9,223,372,036,854,775,808"),
  ])
  func numbersAreGroupedByThrees(count: Int, text: String) {
    #expect(GalleryFeed.grouped(count) == text)
  }

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
