import Foundation
import TesseraBenchSupport

/// timg against the mixed tree's first screen. timg shows what its decoders read, and a RAW
/// is not among them everywhere (Debian's 1.4.5 reads images through GraphicsMagick, videos
/// through libav): each run asks this timg, one file of each kind, and times it on the tiles
/// whose kind it drew, saying which. A video is drawn by its first frame (`--frames=1`;
/// without it timg plays the clip), where the gallery shows a poster 10 % in.
extension FolderBenchmark {
  func addTimgOnMixed(
    _ shots: [MixedFolderPlan.Shot], to report: inout BenchReport, cold: Double, warm: Double
  ) {
    guard FileManager.default.isExecutableFile(atPath: timg) else {
      report.note("timg not installed at \(timg): no timg baseline")
      return
    }
    var drawn: [String: Bool] = [:]
    let shown = shots.filter { shot in
      let kind = Self.kindName(of: shot.shown)
      if let known = drawn[kind] { return known }
      let draws = Self.timgDraws(timg, folder.appendingPathComponent(shot.shown).path)
      drawn[kind] = draws
      return draws
    }
    let version =
      (try? BenchSpawn.run([timg, "--version"], capturing: true).output)?
      .split(separator: "\n").first.map(String.init) ?? "timg"
    let kinds = { (draws: Bool) in
      drawn.filter { $0.value == draws }.keys.sorted().joined(separator: ", ")
    }
    report.note(
      "\(version) draws \(kinds(true).isEmpty ? "none" : kinds(true)) of the first screen's "
        + "kinds, not \(kinds(false).isEmpty ? "none" : kinds(false)): timg.grid_ms is timg on "
        + "those \(shown.count) of the \(shots.count) tiles (videos by their first frame, "
        + "--frames=1), so the ratios against it compare the whole screen with part of it")
    report.add("timg.tiles", Double(shown.count), "tiles")
    guard !shown.isEmpty else { return }
    addBaseline(
      "timg", figure: "timg.grid_ms", to: &report, cold: cold, warm: warm,
      [timg, "--grid=\(min(4, shown.count))", "-g\(columns)x\(rows)", "-ph", "--frames=1"]
        + shown.map { folder.appendingPathComponent($0.shown).path })
  }

  /// "JPG", "CR3", "MP4"…: the kinds timg is asked about, by extension.
  private static func kindName(of name: String) -> String {
    String(name.split(separator: ".").last ?? "").uppercased()
  }

  /// Whether timg draws `path`: it exits 0 and writes half blocks. (Given a file it cannot
  /// read among others, it draws the rest and exits 1; alone, it writes nothing.)
  private static func timgDraws(_ timg: String, _ path: String) -> Bool {
    guard
      let (status, output) = try? BenchSpawn.run(
        [timg, "-g40x12", "-ph", "--frames=1", path], capturing: true)
    else { return false }
    return status == 0 && output.contains("▄")
  }

  /// The mixed tree, as the report's first note says it.
  static func describe(_ plan: MixedFolderPlan) -> String {
    "\(plan.shots.count) shots, \(MixedFolderPlan.census(plan.shots)): 4000x3000 JPEGs, RAWs "
      + "with the same photo as the camera's preview (full size in a CR2's IFD0, "
      + "\(MixedFolderTree.cr3PreviewWidth) px wide in a CR3's PRVW; sensor data a stub), "
      + "2-s 1280x720 H.264 clips, written for this run"
  }
}
