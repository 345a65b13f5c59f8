import Testing

@testable import TesseraGeometry

struct RectTests {
  @Test func aNegativeSizeIsEmpty() {
    let rect = Rect(x: 3, y: -2, width: -5, height: 4)
    #expect(rect.width == 0 && rect.isEmpty)
    #expect(!rect.contains(x: 3, y: 0))
  }

  @Test func farEdgesSaturateForAbsurdRectangles() {
    let rect = Rect(x: Int.max - 1, y: Int.max, width: 10, height: Int.max)
    #expect(rect.maxX == Int.max)
    #expect(rect.maxY == Int.max)
    #expect(rect.offsetBy(dy: Int.min).y == -1)
    #expect(Rect(x: 0, y: Int.min, width: 1, height: 1).offsetBy(dy: -1).y == Int.min)
  }

  @Test func intersectionIsTheOverlapOrEmptyAtTheOrigin() {
    let a = Rect(x: 0, y: 0, width: 10, height: 10)
    #expect(
      a.intersection(Rect(x: 5, y: -3, width: 10, height: 5))
        == Rect(x: 5, y: 0, width: 5, height: 2))
    let apart = a.intersection(Rect(x: 20, y: 20, width: 1, height: 1))
    #expect(apart.isEmpty && apart.x == 0 && apart.y == 0)
  }

  @Test func aBandMeetsOnlyRowsItCovers() {
    let rect = Rect(x: 0, y: 10, width: 4, height: 5)
    #expect(rect.intersects(14..<20))
    #expect(!rect.intersects(15..<20))
    #expect(!rect.intersects(0..<10))
    #expect(!Rect(x: 0, y: 10, width: 4, height: 0).intersects(0..<100))
  }

  @Test func subtractingLeavesDisjointPartsCoveringTheRest() {
    let rect = Rect(x: 0, y: 0, width: 10, height: 6)
    for hole in [
      Rect(x: 3, y: 2, width: 4, height: 2), Rect(x: -2, y: -2, width: 5, height: 5),
      Rect(x: 8, y: 4, width: 9, height: 9), Rect(x: 0, y: 2, width: 10, height: 1),
    ] {
      let parts = rect.subtracting(hole)
      var seen = Set<[Int]>()
      for part in parts {
        #expect(!part.isEmpty)
        #expect(part.intersection(hole).isEmpty)
        for y in part.y..<part.maxY {
          for x in part.x..<part.maxX { #expect(seen.insert([x, y]).inserted, "overlap") }
        }
      }
      let expected = 60 - rect.intersection(hole).width * rect.intersection(hole).height
      #expect(seen.count == expected, "\(hole)")
    }
    #expect(rect.subtracting(Rect(x: 20, y: 0, width: 2, height: 2)) == [rect])
    #expect(rect.subtracting(Rect(x: -1, y: -1, width: 20, height: 20)).isEmpty)
    #expect(Rect(x: 0, y: 0, width: 0, height: 3).subtracting(rect).isEmpty)
  }
}
