import Testing

@testable import TesseraPhotoFormats

/// EXIF's dates read as a camera's clock shows them, to the second.
@Suite struct WallClockTimeTests {
  /// A leap second is the last second of its minute, never the next minute's first: the
  /// last date EXIF can write stays in its year.
  @Test(
    arguments: [
      ("9999:12:31 23:59:60", "9999-12-31 23:59:59"),
      ("2016:12:31 23:59:60", "2016-12-31 23:59:59"),
      ("2024:05:01 14:30:05", "2024-05-01 14:30:05"),
    ])
  func aLeapSecondStaysInItsMinute(exif: String, shown: String) throws {
    let time = try #require(WallClockTime(exif: exif))
    #expect(time.descriptionWithSeconds == shown)
  }

  @Test(
    arguments: [
      "0000:00:00 00:00:00", "2024:04:31 10:00:00", "2024:05:01 24:00:00", "2024:05:01 10:60:00",
      "2024:05:01 10:00:61", "10000:01:01 00:00:00", "2024:05:01",
    ])
  func impossibleDatesAreNone(exif: String) {
    #expect(WallClockTime(exif: exif) == nil)
  }
}
