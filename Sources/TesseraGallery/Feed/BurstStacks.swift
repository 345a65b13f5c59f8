import TesseraImages

/// Bursts as stacks: photos next to each other in the order shown, taken within
/// ``maxGapSeconds`` of the one before (the EXIF date taken; a photo without one never
/// stacks: copies made in the same second are not a burst), that look alike — their
/// thumbnails' ``PerceptualHash``es at most ``maxDistance`` bits apart — are one stack.
///
/// Time first: only photos in a run of close dates have their thumbnails hashed, so a folder
/// with no bursts costs one pass over the dates.
enum BurstStacks {
  /// A burst's frames follow each other within a second or two; a person's next shot of the
  /// same scene takes longer.
  static let maxGapSeconds: Int64 = 2
  /// Bits of 64 two frames of one burst may differ by.
  static let maxDistance = PerceptualHash.burstThreshold

  /// Runs of at least two neighbours each taken within ``maxGapSeconds`` of the one before.
  ///
  /// - Complexity: O(n).
  static func candidateRuns(taken: [Int64?]) -> [Range<Int>] {
    var runs: [Range<Int>] = []
    var start = 0
    for index in 1...max(1, taken.count) {
      let continues =
        index < taken.count
        && {
          guard let previous = taken[index - 1], let current = taken[index] else { return false }
          return abs(current - previous) <= maxGapSeconds
        }()
      if !continues {
        if index - start >= 2 { runs.append(start..<index) }
        start = index
      }
    }
    return runs
  }

  /// `run` cut where a photo does not look like the one before it (or has no hash); the
  /// pieces of two photos or more are stacks.
  ///
  /// - Complexity: O(`run.count`).
  static func stacks(in run: Range<Int>, hashes: [PerceptualHash?]) -> [Range<Int>] {
    var stacks: [Range<Int>] = []
    var start = run.lowerBound
    for index in (run.lowerBound + 1)...run.upperBound {
      let alike =
        index < run.upperBound
        && {
          guard let previous = hashes[index - run.lowerBound - 1],
            let current = hashes[index - run.lowerBound]
          else { return false }
          return previous.distance(to: current) <= maxDistance
        }()
      if !alike {
        if index - start >= 2 { stacks.append(start..<index) }
        start = index
      }
    }
    return stacks
  }
}
