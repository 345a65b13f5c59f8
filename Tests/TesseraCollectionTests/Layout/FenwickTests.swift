import TesseraUtilities
import Testing

@testable import TesseraCollection

@Suite struct FenwickTests {
  @Test func offsetsAndRowLookupsMatchANaivePrefixSum() {
    var random = SplitMix64(seed: 42)
    let count = 3_000
    var heights = (0..<count).map { _ in Int32(Int.random(in: 0...9, using: &random)) }
    let tree = FenwickRowHeights()
    tree.reset(heights: heights)
    for round in 0..<4 {
      if round > 0 {
        for _ in 0..<500 {
          let row = Int.random(in: 0..<count, using: &random)
          let height = Int.random(in: 0...12, using: &random)
          heights[row] = Int32(height)
          tree.setHeight(height, at: row)
        }
      }
      var prefix = [0]
      for height in heights { prefix.append(prefix.last! + Int(height)) }
      #expect(tree.totalHeight == prefix.last!)
      for row in stride(from: 0, through: count, by: 7) {
        #expect(tree.offset(of: row) == prefix[row])
      }
      // The first row whose bottom is below y (zero-height rows skipped), by a linear sweep.
      var naive = 0
      for y in stride(from: 0, through: prefix.last! + 2, by: 3) {
        while naive < count && prefix[naive + 1] <= y { naive += 1 }
        #expect(tree.row(containing: y) == naive)
      }
      #expect(tree.row(containing: -4) == 0)
    }
  }

  @Test func emptyAndSingleRowTrees() {
    let tree = FenwickRowHeights()
    tree.reset(heights: [])
    #expect(tree.totalHeight == 0)
    #expect(tree.row(containing: 0) == 0)
    tree.reset(heights: [5])
    #expect(tree.row(containing: 4) == 0)
    #expect(tree.row(containing: 5) == 1)
    #expect(tree.storageBytes <= 16 * 2)
  }
}
