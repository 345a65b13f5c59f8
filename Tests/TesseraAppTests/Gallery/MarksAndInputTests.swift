import Foundation
import TesseraPhotoLibrary
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraGallery

/// Marks as keys make them, and standard input's names as `-i` reads them.
@Suite(.timeLimit(.minutes(1))) struct MarksAndInputTests {
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
    let (files, notice) = try Self.walk(Array(lines.utf8), nullSeparated: false)
    #expect(files == [path("one.jpg"), path("Two.PNG")])
    #expect(notice == "3 lines of standard input are not readable image files")
    // NUL-separated names may hold newlines.
    let nul = [path("weird\nname.jpg"), path("one.jpg")].joined(separator: "\u{0}") + "\u{0}"
    let (nulFiles, nulNotice) = try Self.walk(Array(nul.utf8), nullSeparated: true)
    #expect(nulFiles == [path("weird\nname.jpg"), path("one.jpg")])
    #expect(nulNotice == nil)
  }

  /// `bytes` through a pipe to `StandardInputWalker`: the files walked and the notice.
  static func walk(_ bytes: [UInt8], nullSeparated: Bool) throws -> ([String], String?) {
    let pipe = Pipe()
    try pipe.fileHandleForWriting.write(contentsOf: Data(bytes))
    try pipe.fileHandleForWriting.close()
    let report = StandardInputReport()
    let walker = StandardInputWalker(
      descriptor: pipe.fileHandleForReading.fileDescriptor, nullSeparated: nullSeparated,
      report: report)
    var files: [String] = []
    walker.walk { batch in
      files += batch.files.map(\.path)
      return true
    }
    let notice = Locked<String??>(nil)
    report.whenFinished { said in notice.withLock { $0 = .some(said) } }
    return (files, notice.withLock { $0 } ?? "never finished")
  }

  /// The first names are walked while the writer is still writing: a batch arrives before
  /// the pipe is closed (the walk waits on the pipe, not on a clock), and the rest after.
  /// Synchronous, with the walk on a thread of its own: no wait here needs the cooperative
  /// pool, which the end-to-end suites keep busy.
  @Test func standardInputIsWalkedAsItArrives() throws {
    let root = TemporaryFolder.make(prefix: "tessera-stdin")
    defer { try? FileManager.default.removeItem(at: root) }
    let paths = try (1...3).map { index in
      let url = root.appendingPathComponent("\(index).jpg")
      try Data([0xFF]).write(to: url)
      return url.path
    }
    let pipe = Pipe()
    let walker = StandardInputWalker(
      descriptor: pipe.fileHandleForReading.fileDescriptor, nullSeparated: false,
      report: StandardInputReport())
    let batches = Locked<[WalkBatch]>([])
    let arrived = DispatchSemaphore(value: 0)
    let walking = Thread {
      walker.walk { batch in
        batches.withLock { $0.append(batch) }
        arrived.signal()
        return true
      }
    }
    walking.start()
    try pipe.fileHandleForWriting.write(contentsOf: Data((paths[0] + "\n").utf8))
    let firstArrived = arrived.wait(timeout: .now() + 30) == .success
    // Whatever happened, the walk must end: the rest goes in and the pipe closes.
    try pipe.fileHandleForWriting.write(contentsOf: Data((paths[1] + "\n" + paths[2]).utf8))
    try pipe.fileHandleForWriting.close()
    #expect(firstArrived, "no batch arrived before the pipe was closed")
    let first = batches.withLock { $0.first }
    #expect(first?.files.map(\.path) == [paths[0]])
    #expect(first?.finished == false)
    while batches.withLock({ $0.last?.finished }) != true {
      guard arrived.wait(timeout: .now() + 30) == .success else {
        Issue.record("the walk did not finish: \(batches.withLock { $0.count }) batches")
        return
      }
    }
    let all = batches.withLock { $0.flatMap { $0.files.map(\.path) } }
    #expect(all == paths)
  }
}
