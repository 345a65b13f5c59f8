import TesseraTerminal
import Testing

@testable import TesseraGallery

/// The status bar tells a person on a slow link what the gallery measured of it.
@Suite struct LinkStatusTests {
  @Test func aLocalTerminalThatKeepsUpSaysNothing() {
    var meter = OutputRateMeter()
    meter.record(bytes: 500_000, start: .now, blocked: .microseconds(50))
    // A write that waited a little: measured, but the link keeps up.
    meter.record(bytes: 100_000, start: .now, blocked: .milliseconds(20))
    #expect(meter.measuredBytesPerSecond != nil)
    #expect(LinkStatus.text(meter, remote: false, graphics: .kitty) == nil)
  }

  @Test func writesThatWaitedGiveTheRateTheLinkSustained() {
    var meter = OutputRateMeter()
    let start = ContinuousClock.now
    // 1.25 MB that took 1 s to go: a 10 Mbit/s link.
    meter.record(bytes: 1_250_000, start: start, blocked: .seconds(1))
    #expect(
      LinkStatus.text(meter, remote: false, graphics: .kitty)
        == "link 1.2 MB/s, previews while moving")
    #expect(LinkStatus.text(meter, remote: false, graphics: .sixel) == "link 1.2 MB/s")
  }

  @Test func overSSHBeforeAnyWaitItSaysSo() {
    #expect(
      LinkStatus.text(OutputRateMeter(), remote: true, graphics: .kitty)
        == "link SSH, previews while moving")
    #expect(LinkStatus.text(OutputRateMeter(), remote: true, graphics: .blocks) == "link SSH")
  }

  /// Over SSH the pty and sshd take megabytes at once, so writes say the link is fast: the
  /// terminal's answers (the pacer's rate) are what the status bar shows.
  @Test func theTerminalsOwnAccountWinsOverHowFastWritesReturned() {
    var meter = OutputRateMeter()
    meter.record(bytes: 10_000_000, start: .now, blocked: .seconds(1))
    #expect(
      LinkStatus.text(meter, measured: 250_000, remote: true, graphics: .sixel)
        == "link 250.0 KB/s")
  }
}
