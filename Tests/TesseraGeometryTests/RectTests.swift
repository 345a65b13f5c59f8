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
}
