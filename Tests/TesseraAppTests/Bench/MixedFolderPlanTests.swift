import Foundation
import TesseraPhotoFormats
import TesseraPhotoLibrary
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraBench

/// The tree `tessera bench folder --mixed` writes, and how it reads the gallery's screen:
/// what the bench times must be what it says it is (no timing here).
@Suite(.timeLimit(.minutes(1))) struct MixedFolderPlanTests {
  @Test func holdsEveryKindInEqualShares() {
    let plan = MixedFolderPlan(count: 48)
    #expect(
      MixedFolderPlan.census(plan.shots)
        == "12 camera JPEGs, 12 RAW+JPEG pairs (CR2, CR3), 12 lone RAWs (CR2, CR3), 12 videos (MP4, mkv)"
    )
    let files = plan.shots.flatMap(\.files)
    #expect(files.count == 60)
    #expect(Set(files).count == files.count)
  }

  @Test func anyEightShotsInARowAreAFirstScreenOfEveryKind() {
    for count in [8, 13, 48, 200] {
      let screen = MixedFolderPlan(count: count).firstScreen(8)
      #expect(screen.map(\.index) == Array((count - 8..<count).reversed()))
      #expect(
        MixedFolderPlan.census(screen)
          == "2 camera JPEGs, 2 RAW+JPEG pairs (CR2, CR3), 2 lone RAWs (CR2, CR3), 2 videos (MP4, mkv)"
      )
    }
  }

  @Test func pairsAreNamedAlikeAndTheWalkShowsEachShotOnce() async throws {
    let plan = MixedFolderPlan(count: 16)
    for shot in plan.shots {
      if case .pair(let family) = shot.kind {
        #expect(shot.files == [shot.shown, shot.shown.dropLast(3) + family.rawValue])
        #expect(shot.badge == "RAW+")
      } else if case .video = shot.kind {
        #expect(shot.files == [shot.shown] && shot.badge == "▶")
      } else {
        #expect(shot.files == [shot.shown] && shot.badge == nil)
      }
    }
    try await TemporaryFolder.with(prefix: "tessera-mixed-plan") { root in
      for name in plan.shots.flatMap(\.files) {
        try Data().write(to: root.appendingPathComponent(name))
      }
      var walked: [WalkedFile] = []
      FolderWalker(roots: [root.path], includeVideos: true).walk { batch in
        walked += batch.files
        return true
      }
      let shown = Dictionary(
        uniqueKeysWithValues: walked.map { (URL(fileURLWithPath: $0.path).lastPathComponent, $0) })
      #expect(Set(shown.keys) == Set(plan.shots.map(\.shown)))
      for shot in plan.shots {
        #expect(shown[shot.shown]?.rawCompanion == shot.files.dropFirst().first)
      }
    }
  }

  @Test func aCameraPreviewLosesTheExifOfItsFile() {
    let picture = RawFixtures.jpeg(width: 16, height: 8)
    let withExif = ExifWriter(model: nil, orientation: 1, dateTaken: nil).splicing(into: picture)
    #expect(withExif != picture)
    #expect(MixedFolderTree.withoutExif(withExif) == picture)
    #expect(MixedFolderTree.withoutExif(picture) == picture)
  }

  @Test func readsCaptionsBadgesAndFailuresOffTheScreen() throws {
    let capture = [
      " Tessera · DCIM                                  grid · 4 cols · ? keys",
      "▀▀▀▀▀▀▀▀▀▀   ▀▀▀▀▀▀▀▀▀▀   ✗ the video's poster could",
      "RAW+ IMG_0002.JPG   ▶ 0:02 MVI_0003.MP4   IMG_0004.CR3   ▶ clip_0005.mkv",
      "▶ 1:02:03 clip_0006.mkv   12:30 IMG_0007.JPG",
      "",
      " photos 1–3 of 48 │ ✓ 2 loaded ⟳ 0 in flight ✗ 1 failed │ hits 0% │ 0 B │ 60 fps",
      "",
    ].joined(separator: "\n")
    let screen = FolderBenchSession.Screen(capture)
    #expect(
      screen.captions.map(\.description) == [
        "RAW+ IMG_0002.JPG", "▶ MVI_0003.MP4", "IMG_0004.CR3", "▶ clip_0005.mkv",
        "▶ clip_0006.mkv", "IMG_0007.JPG",
      ])
    #expect(screen.failed == 1)
    #expect(screen.failures.count == 1)
    #expect(throws: (any Error).self) { try FolderScreenCheck.pictures(screen) }
  }
}
