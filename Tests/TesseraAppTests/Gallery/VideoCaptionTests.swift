import Testing

@testable import TesseraGallery

/// A video's tile and detail view say how long it plays, in one format.
@Suite struct VideoCaptionTests {
  @Test func durationsReadAsPlayersPrintThem() {
    let cases: [(Double, String)] = [
      (42, "0:42"), (42.4, "0:42"), (59.6, "1:00"), (62, "1:02"), (725, "12:05"),
      (3_723, "1:02:03"), (36_000, "10:00:00"), (8_640_000, "2400:00:00"),
      // Under a second still plays: never "0:00".
      (0.01, "0:01"), (0.4, "0:01"), (0, "0:01"),
      // Nothing from outside reaches this unchecked, but it must not trap either.
      (.nan, "0:01"), (.infinity, "9999:59:59"), (-5, "0:01"),
    ]
    for (seconds, text) in cases {
      #expect(DurationText.text(seconds: seconds) == text, "\(seconds)")
    }
  }

  static func facts(_ path: String, duration: Double?) -> GalleryItem.LocalFacts {
    GalleryItem.LocalFacts(
      path: path, fileSize: 1_000_000, pixelSize: nil, taken: "2021-06-05 12:20",
      modified: "2021-06-05 12:21", model: nil, headerRead: true, rawCompanion: nil,
      duration: duration)
  }

  @Test func aVideosTileAndDetailSayItsDuration() {
    let clip = Self.facts("/v/clip.mp4", duration: 42)
    #expect(clip.badge == "▶ 0:42")
    #expect(clip.lines.last == "video · 0:42 · Space pauses · o opens it outside")
    // Not known (yet): the ▶ alone.
    let unknown = Self.facts("/v/clip.webm", duration: nil)
    #expect(unknown.badge == "▶")
    #expect(unknown.lines.last == "video · Space pauses · o opens it outside")
    // A photo has neither.
    let photo = Self.facts("/v/a.jpg", duration: nil)
    #expect(photo.badge == nil)
    #expect(!photo.lines.contains { $0.hasPrefix("video") })
  }

  @Test func anAnimationsTileAndDetailSaySo() {
    var gif = Self.facts("/v/loop.gif", duration: nil)
    gif.isAnimated = true
    #expect(gif.badge == "↻")
    #expect(gif.lines.last?.hasPrefix("animation · it plays here") == true)
    let still = Self.facts("/v/still.gif", duration: nil)
    #expect(still.badge == nil)
    #expect(!still.lines.contains { $0.hasPrefix("animation") })
  }
}
