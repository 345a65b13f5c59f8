import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraGallery

/// Marks as keys make them, and standard input's names as `-i` reads them.
@Suite struct MarksAndInputTests {
  static let ids = ["a", "b", "c", "d", "e"]

  @Test func markToggleRangeAndInvert() {
    var marks = GalleryMarks()
    marks.toggle("b")
    #expect(marks.contains("b") && marks.count == 1)
    marks.toggle("b")
    #expect(marks.count == 0)
    // v at c, two moves right: c, d, e; moving back marks nothing new; v ends it.
    marks.toggleRange(at: 2, ids: Self.ids)
    marks.selectionMoved(from: 2, to: 3, ids: Self.ids)
    marks.selectionMoved(from: 3, to: 4, ids: Self.ids)
    #expect(marks.ids == ["c", "d", "e"])
    marks.toggleRange(at: 4, ids: Self.ids)
    marks.selectionMoved(from: 4, to: 0, ids: Self.ids)
    #expect(marks.ids == ["c", "d", "e"])
    marks.invert(ids: Self.ids)
    #expect(marks.ids == ["a", "b"])
    // A jump over many items in range mode marks all it passes, clamped to the items.
    var jump = GalleryMarks()
    jump.toggleRange(at: 0, ids: Self.ids)
    jump.selectionMoved(from: 0, to: 40, ids: Self.ids)
    #expect(jump.count == 5)
    jump.keep(only: ["a", "z"])
    #expect(jump.ids == ["a"])
  }

  @Test func standardInputNamesAreCheckedAndCounted() throws {
    let root = TemporaryFolder.make(prefix: "tessera-stdin")
    defer { try? FileManager.default.removeItem(at: root) }
    for name in ["one.jpg", "Two.PNG", "three.txt", "weird\nname.jpg"] {
      try Data([0xFF]).write(to: root.appendingPathComponent(name))
    }
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("folder.jpg"), withIntermediateDirectories: true)
    let path = { (name: String) in root.appendingPathComponent(name).path }
    let lines =
      [path("one.jpg"), path("three.txt"), "", path("missing.jpg"), path("Two.PNG")]
      .joined(separator: "\r\n") + "\n" + path("folder.jpg") + "\n"
    let parsed = StandardInputPaths.parse(Array(lines.utf8), nullSeparated: false)
    #expect(parsed.paths == [path("one.jpg"), path("Two.PNG")])
    #expect(parsed.rejected == 3)
    #expect(parsed.notice == "3 lines of standard input are not readable image files")
    // NUL-separated names may hold newlines.
    let nul = [path("weird\nname.jpg"), path("one.jpg")].joined(separator: "\u{0}") + "\u{0}"
    let parsedNul = StandardInputPaths.parse(Array(nul.utf8), nullSeparated: true)
    #expect(parsedNul.paths == [path("weird\nname.jpg"), path("one.jpg")])
    #expect(parsedNul.notice == nil)
  }
}
