import Foundation
import TesseraTerminal
import TesseraUtilities

/// `tessera doctor`: what Tessera finds out about the terminal, the protocol it chooses and
/// why, one test image drawn in each protocol the terminal claims, and the settings that would
/// fix what is off. Its exit status says whether images work.
package enum TerminalDoctor {
  /// The protocols the terminal claims, best first: the chosen one, then any other that its
  /// answers or names allow; half blocks always.
  package static func claimed(by capabilities: TerminalCapabilities) -> [GraphicsProtocol] {
    var protocols = [capabilities.graphics]
    for other in capabilities.alsoClaimed where !protocols.contains(other) {
      protocols.append(other)
    }
    if !protocols.contains(.blocks) { protocols.append(.blocks) }
    return protocols
  }

  /// The link test's line (``LinkTest``): the rate and round trip, or why there are none.
  package static func linkLine(_ result: LinkTest.Result?, throughTmux: Bool) -> String {
    guard let result else {
      return "link           not measured: the terminal did not answer the test transfer"
    }
    let rate = ByteCount.rounded(Int(result.bytesPerSecond.clamped(to: 0...1e15))) + "/s"
    let trip = Int((result.roundTrip * 1000).rounded())
    return "link           \(rate), round trip \(trip) ms (a \(ByteCount.rounded(result.bytes)) "
      + "test transfer\(throughTmux ? " through tmux" : ""))"
  }

  /// The report's lines, in words.
  package static func report(
    _ capabilities: TerminalCapabilities, environment: [String: String]
  ) -> [String] {
    var lines: [String] = []
    lines.append("terminal       \(capabilities.terminalName ?? "unknown (it did not say)")")
    let ssh = environment["SSH_CONNECTION"].map { !$0.isEmpty } ?? false
    lines.append("over SSH       \(ssh ? "yes" : "no")")
    if let tmux = capabilities.tmux {
      lines.append(
        "tmux           \(tmux.version.map(String.init).joined(separator: ".")), passthrough "
          + "\(tmux.passthrough ? "on" : "off"), focus events \(tmux.focusEvents ? "on" : "off"), "
          + "pane at column \(tmux.paneOrigin.x), row \(tmux.paneOrigin.y)")
    } else if capabilities.insideTmux {
      lines.append("tmux           yes, but it did not answer (is tmux on PATH?)")
    } else {
      lines.append("tmux           no")
    }
    var graphics = "\(capabilities.graphics)"
    if capabilities.passthrough { graphics += ", through tmux's passthrough" }
    if capabilities.kittyPlaceholders { graphics += ", as Unicode placeholders" }
    lines.append("images         \(graphics)")
    lines.append("               because \(capabilities.reason)")
    lines.append(
      "cell size      \(capabilities.cellPixelSize.width)×\(capabilities.cellPixelSize.height) px, "
        + "from \(capabilities.cellSizeSource)")
    lines.append("synchronized   \(capabilities.synchronizedOutput ? "yes (DEC 2026)" : "no")")
    if capabilities.graphics == .kitty {
      lines.append(
        "kitty uploads  \(capabilities.kittyLocalFiles ? "through local files" : "inline (base64)")"
      )
    }
    for advice in capabilities.advice { lines.append("to fix         \(advice)") }
    if capabilities.graphics == .blocks {
      lines.append(
        "               half blocks show everywhere; if the test images above show in another "
          + "protocol, choose it with --graphics")
    }
    return lines
  }

  /// A test picture: hue across, light down, a white diagonal whose slope shows any stretch.
  static func testBitmap(width: Int, height: Int) throws -> Bitmap {
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        let hue = Double(x) / Double(max(1, width - 1))
        let light = 0.35 + 0.65 * Double(height - y) / Double(max(1, height))
        let red = max(0, 1 - abs(hue * 3 - 0.5) * 1.2)
        let green = max(0, 1 - abs(hue * 3 - 1.5) * 1.2)
        let blue = max(0, 1 - abs(hue * 3 - 2.5) * 1.2)
        let index = (y * width + x) * 4
        let onDiagonal = abs(x * height - y * width) < width * 2
        pixels[index] = onDiagonal ? 255 : UInt8(clamping: Int(red * light * 255))
        pixels[index + 1] = onDiagonal ? 255 : UInt8(clamping: Int(green * light * 255))
        pixels[index + 2] = onDiagonal ? 255 : UInt8(clamping: Int(blue * light * 255))
      }
    }
    return try Bitmap(width: width, height: height, pixels: pixels)
  }

  /// The bytes that draw the test image of each of `protocols` side by side at `row` of a
  /// screen of `size`, each under its name. Every draw goes through a renderer of its own, as
  /// the gallery's would (tmux's passthrough and placeholders included).
  static func testImages(
    _ protocols: [GraphicsProtocol], capabilities: TerminalCapabilities, size: TerminalSize,
    row: Int
  ) throws -> [UInt8] {
    let columns = 24
    let rows = 8
    let cell = capabilities.cellPixelSize
    let bitmap = try testBitmap(width: columns * cell.width, height: rows * cell.height)
    var out: [UInt8] = []
    let blank = FrameBuffer(width: size.columns, height: size.rows)
    for (index, graphics) in protocols.enumerated() {
      let x = 2 + index * (columns + 4)
      guard x + columns <= size.columns, row + 1 + rows < size.rows else { break }
      var capabilities = capabilities
      if graphics != capabilities.graphics {
        capabilities.graphics = graphics
        capabilities.kittyPlaceholders = capabilities.kittyPlaceholders && graphics == .kitty
      }
      let renderer = TerminalRenderer(capabilities: capabilities)
      renderer.synchronizedOutput = false
      var label = blank
      label.put(graphics.description, x: x, y: row)
      // The first frame is what the screen already shows; the second adds only the image.
      _ = renderer.render(label)
      out += renderer.render(
        label,
        images: [
          ImagePlacement(
            imageID: UInt64(index + 1), bitmap: bitmap,
            rect: CellRect(x: x, y: row + 1, width: columns, height: rows))
        ])
      // Each label is written by its own renderer's diff; the others' frames have it blank.
      out += Array("\u{1B}[0m\u{1B}[\(row + 1);\(x + 1)H\(graphics.description)".utf8)
    }
    return out
  }

  /// Runs the doctor on the terminal (`/dev/tty`, so standard output may be a file): clears
  /// the screen, draws the test images, prints the report below them and leaves the cursor
  /// under it; the report also goes to standard output when that is not the terminal.
  /// Returns whether images work (the exit status's 0).
  package static func run(environment: [String: String]) throws -> Bool {
    let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
    guard tty >= 0 else { throw TerminalError.notATerminal(descriptor: STDOUT_FILENO) }
    defer { close(tty) }
    let session = try TerminalSession(modes: [], input: tty, output: tty)
    defer { session.restore() }
    let capabilities = session.detectCapabilities(environment: environment)
    // The test images stay on the screen, under the report, after the doctor exits.
    session.keepImagesAfterExit()
    let size = session.size()
    let protocols = claimed(by: capabilities)
    session.write(
      Array(
        ("\u{1B}[H\u{1B}[2J\u{1B}[1mtessera doctor\u{1B}[0m: a test image in each protocol "
          + "this terminal claims\r\n").utf8))
    session.write(try testImages(protocols, capabilities: capabilities, size: size, row: 2))
    // The link, timed by the terminal's answers, over the line the report starts on.
    let reportRow = min(size.rows, 12)
    session.write(Array("\u{1B}[0m\u{1B}[\(reportRow);1H".utf8))
    let link = LinkTest.run(
      session: session, columns: size.columns, passthrough: capabilities.passthrough)
    var lines = report(capabilities, environment: environment)
    lines.append(linkLine(link, throughTmux: capabilities.passthrough))
    lines.append(
      capabilities.graphics == .blocks
        ? "images: half blocks only (exit status 1)"
        : "images: \(capabilities.graphics) (exit status 0)")
    var text = "\u{1B}[0m\u{1B}[\(reportRow);1H"
    for line in lines {
      text += TextLayout.truncate(line, columns: max(10, size.columns - 1)) + "\r\n"
    }
    session.write(Array(text.utf8))
    if isatty(STDOUT_FILENO) == 0 {
      FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
    return capabilities.graphics != .blocks
  }
}
