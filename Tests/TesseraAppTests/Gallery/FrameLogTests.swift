import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraGallery

/// The frame log `tessera bench folder` dates a full screen by.
@Suite struct FrameLogTests {
  @Test func framesAreLoggedInOrderWithTheirEnds() throws {
    let folder = TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("frames").path
    let log = try #require(FrameLog(environment: [FrameLog.environmentKey: path]))
    log.frameComposed(endingAt: 712)
    log.frameComposed(endingAt: 200_976)
    let frames = FrameLog.frames(in: try String(contentsOfFile: path, encoding: .utf8))
    #expect(frames.map(\.bytes) == [712, 200_976])
    #expect(frames[0].time <= frames[1].time)
    #expect(frames[1].time <= FrameLog.monotonicNanoseconds())
  }

  @Test func noLogWithoutTheVariableNorThroughASymbolicLink() throws {
    #expect(FrameLog(environment: [:]) == nil)
    #expect(FrameLog(environment: [FrameLog.environmentKey: ""]) == nil)
    let folder = TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(at: folder) }
    let target = folder.appendingPathComponent("target")
    let link = folder.appendingPathComponent("link")
    try Data().write(to: target)
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    #expect(FrameLog(environment: [FrameLog.environmentKey: link.path]) == nil)
  }

  @Test func linesThatAreNotFramesAreSkipped() {
    let frames = FrameLog.frames(in: "12 700\ngarbage\n13\n14 900 extra\n15 901\n")
    #expect(frames.map(\.time) == [12, 15])
    #expect(frames.map(\.bytes) == [700, 901])
  }
}
