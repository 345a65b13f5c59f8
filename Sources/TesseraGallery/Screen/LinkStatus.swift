import TesseraTerminal
import TesseraUtilities

/// What the status bar says about the link to the terminal: nothing while it keeps up with a
/// local terminal; over SSH, or whenever writes keep the gallery waiting (the meter is
/// behind), the rate the link sustained when it made the gallery wait and, with kitty, that
/// flings show previews (full detail follows once the screen stops).
enum LinkStatus {
  static func text(
    _ meter: OutputRateMeter, remote: Bool, graphics: GraphicsProtocol
  ) -> String? {
    guard remote || meter.isBehind else { return nil }
    let measured = meter.measuredBytesPerSecond
    var text = "link " + (measured.map { ByteCount.rounded(Int(min($0, 1e15))) + "/s" } ?? "SSH")
    if graphics == .kitty { text += ", previews while moving" }
    return text
  }
}
