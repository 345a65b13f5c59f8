import Foundation
import Testing

@testable import TesseraTerminal

/// The same-machine probe (as kitty's icat does it) and uploads through temporary files.
@Suite(.serialized) struct KittyLocalFilesTests {
  static func decide(
    _ environment: [String: String], _ replies: [TerminalReply]
  ) -> TerminalCapabilities {
    TerminalCapabilities.decide(environment: environment, replies: replies)
  }

  @Test func localFilesOnlyWhenTheProbeWasReadByAKittyOutsideTmux() {
    let kitty = TerminalReply.kittyGraphics(imageID: 31, message: "OK")
    let read = TerminalReply.kittyGraphics(imageID: 32, message: "OK")
    #expect(Self.decide([:], [kitty, read]).kittyLocalFiles)
    // Over SSH kitty cannot open the file and says why.
    let remote = TerminalReply.kittyGraphics(
      imageID: 32, message: "EBADF:Failed to open file for graphics transmission")
    #expect(!Self.decide([:], [kitty, remote]).kittyLocalFiles)
    #expect(!Self.decide([:], [kitty]).kittyLocalFiles)
    // The probe's OK is not a kitty answer by itself (id 31 is), and not for a sixel screen.
    #expect(Self.decide([:], [read, .primaryDeviceAttributes([62, 4])]).graphics == .sixel)
    #expect(!Self.decide([:], [read, .primaryDeviceAttributes([62, 4])]).kittyLocalFiles)
    #expect(!Self.decide(["TMUX": "/tmp/t,1,0", "KITTY_WINDOW_ID": "1"], [read]).kittyLocalFiles)
  }

  @Test func theProbeNamesATemporaryFileKittyMayDeleteAndItIsRemovedOnceAnswered() throws {
    let query = String(decoding: CapabilityProbe.query(), as: UTF8.self)
    let path = CapabilityProbe.probePath
    #expect(path.contains("tty-graphics-protocol"))
    #expect(path.hasPrefix(KittyLocalFiles.folder + "/"))
    let encoded = Data(path.utf8).base64EncodedString()
    #expect(query.contains("\u{1B}_Gi=32,s=1,v=1,a=q,t=t,f=24;\(encoded)\u{1B}\\"))
    #expect(FileManager.default.contents(atPath: path) == Data([0, 0, 0]))
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    #expect(!CapabilityProbe.isComplete([.version("kitty(0.26.5)")]))
    #expect(FileManager.default.fileExists(atPath: path))
    #expect(CapabilityProbe.isComplete([.primaryDeviceAttributes([62])]))
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test func uploadsThroughFilesCarryOnlyThePathAndTheFileHoldsThePixels() throws {
    let bitmap = try Bitmap.generated(width: 3, height: 2) { x, y in
      (UInt8(x * 10), UInt8(y * 10), 7, 255)
    }
    var out = ByteWriter()
    #expect(KittyCommands.transmitFile(id: 4, bitmap: bitmap, passthrough: false, into: &out))
    var wire = KittyWire()
    try wire.apply(out.bytes)
    #expect(out.count < 150)
    #expect(wire.images[4]?.rgba == bitmap.pixels)
    #expect(wire.images[4]?.format == "file")
  }

  @Test func aRendererWithLocalFilesSendsPathsAndStillCropsToTheTile() throws {
    var layer = KittyLayer(
      placeholders: false, cellSize: PixelSize(width: 8, height: 16), localFiles: true)
    var frame = FrameBuffer(width: 30, height: 10)
    var out = ByteWriter()
    var statistics = RenderStatistics()
    let photo = try KittyAspectTests.checkerboard(width: 300, height: 200)
    let wanted = layer.prepare(
      [
        ImagePlacement(imageID: 1, bitmap: photo, rect: CellRect(x: 0, y: 0, width: 10, height: 10))
      ],
      frame: &frame, policy: .all, uploadsOut: &out, statistics: &statistics)
    _ = layer.place(wanted, into: &out)
    #expect(String(decoding: out.bytes, as: UTF8.self).contains("a=t,t=t,f=24,s=80,v=160,"))
    var wire = KittyWire()
    try wire.apply(out.bytes)
    let placement = try #require(wire.placements.first)
    #expect(KittyAspectTests.keepsAspect(placement))
    #expect(statistics.imageBytesUploaded < 200)
  }
}
