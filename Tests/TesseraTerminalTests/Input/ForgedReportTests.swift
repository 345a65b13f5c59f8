import Testing

@testable import TesseraTerminal

/// Numbers a hostile terminal (or anything that can write to our input) sends: every one is
/// clamped to ``TerminalLimits`` where it enters, before any arithmetic.
@Suite struct ForgedReportTests {
  static func parse(_ text: String) -> [InputEvent] { InputParserTests.parse(text) }

  @Test func aForgedInBandResizeIsClampedToTheLargestScreen() {
    #expect(
      Self.parse("\u{1B}[48;1000000;1000000;99999999;99999999t") == [
        .resize(
          TerminalSize(
            columns: 4_096, rows: 4_096, pixelWidth: TerminalLimits.maximumParameter,
            pixelHeight: TerminalLimits.maximumParameter))
      ])
    #expect(Self.parse("\u{1B}[48;0;80;0;0t") == [])
  }

  @Test func aForgedCellSizeIsClampedTo512Pixels() {
    #expect(
      Self.parse("\u{1B}[6;1000000;70000t") == [
        .reply(.cellPixelSize(PixelSize(width: 512, height: 512)))
      ])
    #expect(Self.parse("\u{1B}[6;0;10t") == [])
  }

  @Test func textAreaReportsAreParsedAndClamped() {
    #expect(
      Self.parse("\u{1B}[8;50;9999999t") == [
        .reply(.textAreaSize(TerminalSize(columns: 4_096, rows: 50)))
      ])
    #expect(
      Self.parse("\u{1B}[4;600;800t") == [
        .reply(.textAreaPixels(PixelSize(width: 800, height: 600)))
      ])
    #expect(
      Self.parse("\u{1B}[4;99999999;1t") == [
        .reply(
          .textAreaPixels(PixelSize(width: 1, height: TerminalLimits.maximumParameter)))
      ])
  }

  @Test func thirtyDigitParametersSaturateInsteadOfOverflowing() {
    let digits = String(repeating: "9", count: 30)
    #expect(Self.parse("\u{1B}[\(digits);5A") == [.key(.up, [.control])])
    #expect(
      Self.parse("\u{1B}[<0;\(digits);\(digits)M") == [
        .mouse(MouseEvent(kind: .press(button: 0), column: 4_095, row: 4_095))
      ])
    #expect(Self.parse("\u{1B}[<\(digits);1;1M").count == 1)
  }

  @Test func mouseCoordinatesStayOnTheLargestScreen() {
    #expect(
      Self.parse("\u{1B}[<0;999999;5000M") == [
        .mouse(MouseEvent(kind: .press(button: 0), column: 4_095, row: 4_095))
      ])
  }

  @Test func aSequenceWithThousandsOfParametersKeepsABoundedFew() {
    let many = Array(repeating: "7", count: 2_000).joined(separator: ";")
    let events = Self.parse("\u{1B}[?\(many)c")
    #expect(events == [.reply(.primaryDeviceAttributes(Array(repeating: 7, count: 32)))])
  }

  @Test func aKittyReplyWithAnAbsurdIdHasNone() {
    #expect(
      Self.parse("\u{1B}_Gi=99999999999999999999999;OK\u{1B}\\") == [
        .reply(.kittyGraphics(imageID: 0, message: "OK"))
      ])
    #expect(
      Self.parse("\u{1B}_Gi=-5;OK\u{1B}\\") == [.reply(.kittyGraphics(imageID: 0, message: "OK"))])
  }

  @Test func aWindowReportingHugePixelsGivesABoundedCellSize() {
    let size = TerminalSize(columns: 1, rows: 1, pixelWidth: 2_000_000, pixelHeight: 3)
    #expect(size.cellPixelSize == PixelSize(width: 512, height: 3))
    #expect(
      TerminalSize(columns: 800, rows: 1, pixelWidth: 10, pixelHeight: 10).cellPixelSize == nil)
  }

  @Test func capabilitiesClampEveryCellSizeWhateverItsSource() {
    let forged = TerminalCapabilities.decide(
      environment: [:], replies: [.cellPixelSize(PixelSize(width: 1 << 40, height: -3))])
    #expect(forged.cellPixelSize == PixelSize(width: 10, height: 20))
    let huge = TerminalCapabilities.decide(
      environment: [:], replies: [.cellPixelSize(PixelSize(width: 1 << 40, height: 1 << 40))])
    #expect(huge.cellPixelSize == PixelSize(width: 512, height: 512))
    let fromTextArea = TerminalCapabilities.decide(
      environment: [:],
      replies: [
        .textAreaSize(TerminalSize(columns: 100, rows: 40)),
        .textAreaPixels(PixelSize(width: 900, height: 720)),
      ])
    #expect(fromTextArea.cellPixelSize == PixelSize(width: 9, height: 18))
    let direct = TerminalCapabilities(
      graphics: .sixel, cellPixelSize: PixelSize(width: 100_000, height: 0))
    #expect(direct.cellPixelSize == PixelSize(width: 10, height: 20))
  }

  @Test func theRendererClampsTheCellSizeItEncodesFor() {
    let renderer = TerminalRenderer(
      graphics: .sixel, cellPixelSize: PixelSize(width: 1 << 30, height: 1 << 30))
    #expect(renderer.cellPixelSize == PixelSize(width: 512, height: 512))
    renderer.cellPixelSize = PixelSize(width: 7, height: 1 << 50)
    #expect(renderer.cellPixelSize == PixelSize(width: 7, height: 512))
  }

  @Test func aFrameBufferNeverExceedsTheLargestScreen() {
    let frame = FrameBuffer(width: 1 << 40, height: 1 << 40)
    #expect(frame.width == 4_096)
    #expect(frame.height == 4_096)
    #expect(frame.cells.count == 4_096 * 4_096)
  }
}
