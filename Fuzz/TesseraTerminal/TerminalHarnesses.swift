// libFuzzer harnesses for TesseraTerminal: what a terminal (or anything that can write to our
// input) sends, and the text a feed puts on screen. Each checks the module's limits hold.
extension FuzzHarnesses {
  static let moduleHarnesses: [String: @Sendable (UnsafeRawBufferPointer) -> Void] = [
    // The input parser on arbitrary bytes, fed in two chunks split at a point the first byte
    // picks, so partial sequences are exercised; then flushed as after a timeout.
    "terminal-input": { bytes in
      guard let first = bytes.first else { return }
      let data = Array(bytes.dropFirst())
      let split = Int(first) % (data.count + 1)
      var parser = InputParser()
      var events = parser.feed(data[..<split])
      events += parser.feed(data[split...])
      events += parser.flush()
      events.forEach(checkLimits)
      // The parser recovers: after any garbage, a paste end and a timeout, a key is a key.
      _ = parser.feed(Array("\u{1B}[201~".utf8))
      _ = parser.flush()
      precondition(parser.feed(Array("q".utf8)) == [.key(.character("q"))])
    },
    // Capability detection on arbitrary replies: every decision stays within the limits.
    "capabilities-reply": { bytes in
      var parser = InputParser()
      let replies = (parser.feed(Array(bytes)) + parser.flush()).compactMap { event in
        if case .reply(let reply) = event { return reply }
        return nil
      }
      let capabilities = TerminalCapabilities.decide(
        environment: ["TERM": "xterm-256color"], replies: replies,
        windowSize: TerminalSize(columns: 80, rows: 24, pixelWidth: 800, pixelHeight: 480))
      precondition(TerminalLimits.cellPixelRange.contains(capabilities.cellPixelSize.width))
      precondition(TerminalLimits.cellPixelRange.contains(capabilities.cellPixelSize.height))
      _ = TerminalRenderer(capabilities: capabilities)
    },
    // tmux's answers (`TmuxState.query` reads them from a tmux we do not control): any text
    // parses to nil or to a state within the limits, and inside tmux every decision made with
    // it and arbitrary replies stays within them too.
    "tmux-state": { bytes in
      let text = String(decoding: bytes, as: UTF8.self)
      guard let state = TmuxState.parse(text) else { return }
      precondition((0...TerminalLimits.maximumColumns).contains(state.paneOrigin.x))
      precondition((0...TerminalLimits.maximumRows).contains(state.paneOrigin.y))
      precondition(state.version.count <= 4 && state.version.allSatisfy { $0 >= 0 })
      var parser = InputParser()
      let replies = (parser.feed(Array(bytes)) + parser.flush()).compactMap { event in
        if case .reply(let reply) = event { return reply }
        return nil
      }
      let capabilities = TerminalCapabilities.decide(
        environment: ["TMUX": "/tmp/tmux-0/default,1,0"], replies: replies, tmux: state)
      let renderer = TerminalRenderer(capabilities: capabilities)
      _ = renderer.render(FrameBuffer(width: 8, height: 4))
    },
    // Text from a feed: sanitized, wrapped and truncated by columns, drawn into a tile.
    "text-layout": { bytes in
      guard let first = bytes.first else { return }
      let columns = Int(first % 40)
      let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
      let lines = TextLayout.wrap(text, columns: columns, maxLines: 4)
      precondition(lines.count <= 4)
      var frame = FrameBuffer(width: 48, height: 6)
      let tile = CellRect(x: 2, y: 1, width: columns, height: 4)
      for (row, line) in lines.enumerated() {
        precondition(GraphemeWidth.columns(of: line) <= columns)
        precondition(!line.unicodeScalars.contains { TerminalText.isBidiControl($0.value) })
        frame.put(line, x: tile.x, y: tile.y + row, clip: tile)
      }
      let truncated = TextLayout.truncate(text, columns: columns)
      precondition(GraphemeWidth.columns(of: truncated) <= columns)
      frame.put(truncated, x: 0, y: 0)
      // Nothing outside the tile was touched but row 0.
      for y in 1..<frame.height {
        for x in 0..<frame.width where !tile.contains(x: x, y: y) {
          precondition(frame[x, y] == .blank)
        }
      }
      _ = TerminalRenderer(graphics: .blocks).render(frame)
    },
    // Images of any shape placed anywhere, cropped by any viewport, in each protocol: the
    // pixels resampled per frame stay bounded by the screen (and, for kitty, by the bitmap).
    "sixel-decode": { bytes in
      for image in SixelDecoder.decode(Array(bytes)) {
        precondition(image.width <= SixelDecoderLimits.maximumSide)
        precondition(image.height <= SixelDecoderLimits.maximumSide)
        precondition(image.pixels.count == image.width * image.height * 4)
      }
    },
    "image-placement": { bytes in
      guard bytes.count >= 24 else { return }
      func int(_ offset: Int) -> Int {
        Int(bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self))
      }
      let bitmapWidth = Int(bytes[0] % 48) + 1
      let bitmapHeight = Int(bytes[1] % 48) + 1
      let graphics = GraphicsProtocol.allCases[Int(bytes[2]) % 3]
      let cell = PixelSize(width: Int(bytes[3] % 24) + 1, height: Int(bytes[3] / 8) + 1)
      let rect = CellRect(x: int(4) >> 8, y: int(8) >> 4, width: int(12), height: int(16))
      let clip = CellRect(
        x: Int(bytes[20] % 40), y: Int(bytes[21] % 20), width: Int(bytes[22] % 60),
        height: Int(bytes[23] % 30))
      guard
        let bitmap = try? Bitmap.generated(
          width: bitmapWidth, height: bitmapHeight,
          { x, y in
            (UInt8(truncatingIfNeeded: x), UInt8(truncatingIfNeeded: y), 7, 255)
          })
      else { return }
      let renderer = TerminalRenderer(graphics: graphics, cellPixelSize: cell)
      let frame = FrameBuffer(width: 40, height: 20)
      var placement = ImagePlacement(imageID: 1, bitmap: bitmap, rect: rect, clip: clip)
      _ = renderer.render(frame, images: [placement])
      placement.rect.y = placement.rect.y &- 1
      _ = renderer.render(frame, images: [placement])
      let screen = max(40 * 20 * cell.width * cell.height, 40 * 20 * 2) + bitmapWidth * bitmapHeight
      precondition(renderer.statistics.pixelsResampled <= 2 * screen)
    },
  ]

  private static func checkLimits(_ event: InputEvent) {
    switch event {
    case .resize(let size):
      precondition(TerminalLimits.columnRange.contains(size.columns))
      precondition(TerminalLimits.rowRange.contains(size.rows))
      precondition(TerminalLimits.windowPixelRange.contains(size.pixelWidth))
      precondition(TerminalLimits.windowPixelRange.contains(size.pixelHeight))
    case .mouse(let mouse):
      precondition((0..<TerminalLimits.maximumColumns).contains(mouse.column))
      precondition((0..<TerminalLimits.maximumRows).contains(mouse.row))
    case .paste(let text):
      precondition(text.utf8.count <= TerminalLimits.maximumPasteLength * 3)
    case .reply(.cellPixelSize(let size)):
      precondition(TerminalLimits.cellPixelRange.contains(size.width))
      precondition(TerminalLimits.cellPixelRange.contains(size.height))
    case .reply(.primaryDeviceAttributes(let attributes)):
      precondition(attributes.count <= TerminalLimits.maximumParameters)
    case .key, .focus, .reply:
      break
    }
  }
}
