import TesseraBenchSupport

/// What a timed screen must show before its time counts. A tile whose load failed is drawn
/// with its reason and no placeholder, so waiting for the placeholders to go would time a
/// failure as a picture: a screen with one fails the bench instead. The mixed tree's first
/// screen must also be the plan's newest shots, each once (a RAW+JPEG pair is one tile, not
/// two), with the badges the gallery draws, and hold every kind of file the tree has.
enum FolderScreenCheck {
  typealias Screen = FolderBenchSession.Screen

  /// Throws when a tile on `screen` shows an error, or the status bar counts a failed load.
  static func pictures(_ screen: Screen) throws {
    guard screen.failures.isEmpty, screen.failed == 0 else {
      throw BenchFailure(
        "the gallery failed to load \(max(screen.failed, screen.failures.count)) image(s); "
          + "the screen showed: " + screen.failures.joined(separator: " | "))
    }
  }

  /// Throws unless `screen`, a first screen of the mixed tree, shows what `plan` leads to
  /// expect.
  static func firstScreen(_ screen: Screen, of plan: MixedFolderPlan) throws {
    try pictures(screen)
    // A pair counted twice would make the list longer than the plan.
    guard screen.total == plan.shots.count else {
      throw BenchFailure(
        "the gallery lists \(screen.total) items for the tree's \(plan.shots.count) shots")
    }
    let shots = plan.firstScreen(screen.last - screen.first + 1)
    let expected = shots.map { Screen.Caption(badge: $0.badge, name: $0.shown) }
    // The bottom row's captions can fall below the screen's edge: the ones read must be the
    // first of the plan's.
    guard screen.first == 1, !screen.captions.isEmpty,
      screen.captions[...] == expected.prefix(screen.captions.count)
    else {
      throw BenchFailure(
        "the first screen shows \(describe(screen.captions)); the tree's newest shots are "
          + describe(expected))
    }
    let kinds: [(String, (MixedFolderPlan.Kind) -> Bool)] = [
      ("camera JPEG", { $0 == .jpeg }),
      ("RAW+JPEG pair", { if case .pair = $0 { true } else { false } }),
      ("lone RAW", { if case .raw = $0 { true } else { false } }),
      ("video", { if case .video = $0 { true } else { false } }),
    ]
    let missing = kinds.filter { _, isKind in !shots.contains { isKind($0.kind) } }.map(\.0)
    guard missing.isEmpty else {
      throw BenchFailure(
        "the first screen (\(shots.count) tiles) holds no \(missing.joined(separator: ", ")): "
          + "use a terminal of at least \(MixedFolderPlan.cycle.count) tiles")
    }
  }

  private static func describe(_ captions: [Screen.Caption]) -> String {
    "[" + captions.map(\.description).joined(separator: ", ") + "]"
  }
}
