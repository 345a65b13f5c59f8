import TesseraUtilities
import Testing

@testable import TesseraCollection

@Suite struct RangeListTests {
  private func randomRanges(_ random: inout SplitMix64) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var at = Int.random(in: -5...5, using: &random)
    for _ in 0..<Int.random(in: 0...4, using: &random) {
      let length = Int.random(in: 0...6, using: &random)
      ranges.append(at..<(at + length))
      at += length + Int.random(in: 1...5, using: &random)
    }
    return ranges
  }

  private func members(_ ranges: [Range<Int>]) -> Set<Int> { Set(ranges.flatMap { $0 }) }

  @Test func subtractionAndUnionMatchSets() {
    var random = SplitMix64(seed: 21)
    for _ in 0..<2_000 {
      let a = randomRanges(&random)
      let b = randomRanges(&random)
      let difference = RangeList.subtracting(a, b)
      #expect(members(difference) == members(a).subtracting(members(b)))
      #expect(difference.allSatisfy { !$0.isEmpty })
      let union = RangeList.union(a, b)
      #expect(members(union) == members(a).union(members(b)))
      #expect(zip(union, union.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound })
    }
  }
}
