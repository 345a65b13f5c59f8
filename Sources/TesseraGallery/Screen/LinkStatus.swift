import TesseraTerminal
import TesseraUtilities

/// What the status bar says about the link to the terminal: nothing while it keeps up with a
/// local terminal; over SSH, or whenever writes keep the gallery waiting (the meter is
/// behind), the link's rate and, with kitty, that flings show previews (full detail follows
/// once the screen stops). The rate is the terminal's own account (`measured`, from the
/// ``LinkPacer``'s DA1 answers) where there is one: how fast `write` returned says little
/// over SSH, where a pty and sshd take megabytes before the network sends any.
enum LinkStatus {
  static func text(
    _ meter: OutputRateMeter, measured: Double? = nil, remote: Bool, graphics: GraphicsProtocol
  ) -> String? {
    guard remote || meter.isBehind else { return nil }
    let measured = measured ?? meter.measuredBytesPerSecond
    var text = "link " + (measured.map { ByteCount.rounded(Int(min($0, 1e15))) + "/s" } ?? "SSH")
    if graphics == .kitty { text += ", previews while moving" }
    return text
  }
}
