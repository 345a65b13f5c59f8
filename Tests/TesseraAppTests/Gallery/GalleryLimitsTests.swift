import Testing

@testable import TesseraGallery

/// A feed can claim any shape for a photo; the rows and tiles the gallery lays out stay sane.
@MainActor
struct GalleryLimitsTests {
  @Test(arguments: [Double.nan, .infinity, -.infinity, 1e300, -1e300, 0, 65_535, 1 / 65_535])
  func listThumbnailsStayWithinTheirRows(claimedHeightPerWidth: Double) {
    let rows = RowCell.thumbnailRows(forHeightPerWidth: claimedHeightPerWidth)
    #expect(GalleryLimits.thumbnailRows.contains(rows))
  }

  @Test func ordinaryShapesKeepTheirProportions() {
    // 16 columns at 0.5 rows per column: 8 rows, as before the limits.
    #expect(RowCell.thumbnailRows(forHeightPerWidth: 0.5) == 8)
    #expect(RowCell.thumbnailRows(forHeightPerWidth: 1) == 16)
  }
}
