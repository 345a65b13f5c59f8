/// tmux's passthrough: `ESC P tmux ; … ESC \` hands what is inside, every ESC doubled, to the
/// terminal outside tmux unchanged (when the pane's `allow-passthrough` is on).
///
/// tmux 3.3 drops a whole escape sequence longer than its input limit (1 MB, tmux#3726), so
/// long content goes as several passthrough sequences, each under ``chunkLimit`` bytes before
/// doubling. The outer terminal does not see them joined: tmux writes its own resets
/// (`ESC ( B`, `CSI m`, cursor modes, a cursor move) after each sequence, which would end a
/// sixel inside it; so a sixel through tmux is drawn in pieces that each fit one sequence
/// (`TerminalRenderer.piecesThroughTmux`), and only kitty's chunked commands, each whole,
/// may span several. An image drawn past tmux lands at
/// the outer terminal's cursor, which is not the pane's: ``positioned(_:at:origin:into:)``
/// saves the outer cursor, moves to the pane's cell in outer coordinates, draws, and restores.
enum TmuxPassthrough {
  /// The most bytes of one passthrough sequence's content: under half of tmux's 1 MB limit,
  /// which leaves room for doubled ESCs (at most twice the bytes).
  static let chunkLimit = 480 * 1024

  /// Appends `content` wrapped for passthrough: one sequence per ``chunkLimit`` bytes.
  /// O(content).
  static func wrap(_ content: some Collection<UInt8>, into out: inout ByteWriter) {
    var count = 0
    var open = false
    for byte in content {
      if !open {
        out.append([0x1B, UInt8(ascii: "P")])
        out.append("tmux;")
        open = true
      }
      if byte == 0x1B { out.append(0x1B) }
      out.append(byte)
      count += 1
      if count == chunkLimit {
        out.append([0x1B, 0x5C])
        open = false
        count = 0
      }
    }
    if open { out.append([0x1B, 0x5C]) }
  }

  /// `bytes` with `content` put inside the passthrough sequence they end with, before its
  /// close; nil when they do not end with one (text or another string sequence after it, or
  /// no passthrough at all). A sequence's content is every ESC doubled, so the last
  /// `ESC P tmux;` begins the final sequence exactly when no single ESC follows it but the
  /// closing `ESC \`. tmux writes ~110 bytes of its own resets after every sequence: what
  /// follows a frame's last image goes inside it rather than in one of its own.
  ///
  /// - Complexity: O(the final sequence's length + content).
  static func inserting(_ content: [UInt8], intoSequenceEnding bytes: [UInt8]) -> [UInt8]? {
    guard bytes.count >= 2, bytes[bytes.count - 2] == 0x1B, bytes[bytes.count - 1] == 0x5C
    else { return nil }
    let opening: [UInt8] = [0x1B, UInt8(ascii: "P")] + Array("tmux;".utf8)
    var start = bytes.count - opening.count - 2
    while start >= 0, !bytes[start...].starts(with: opening) { start -= 1 }
    guard start >= 0 else { return nil }
    var index = start + opening.count
    while index < bytes.count - 2 {
      guard bytes[index] == 0x1B else {
        index += 1
        continue
      }
      guard bytes[index + 1] == 0x1B else { return nil }
      index += 2
    }
    guard index == bytes.count - 2 else { return nil }
    var out = ByteWriter()
    out.append(bytes.dropLast(2))
    for byte in content {
      if byte == 0x1B { out.append(0x1B) }
      out.append(byte)
    }
    out.append([0x1B, 0x5C])
    return out.bytes
  }

  /// `content` drawn with the outer cursor at the pane's cell `cell`, the pane's top-left
  /// being `origin` on the outer screen; the outer cursor is saved and restored around it
  /// (DECSC/DECRC), so tmux's own idea of it stays true.
  static func positioned(
    _ content: [UInt8], at cell: CellPoint, origin: CellPoint, into out: inout ByteWriter
  ) {
    var inner = ByteWriter(capacity: content.count + 16)
    inner.escape("7")
    CursorMotion.move(from: nil, to: (origin.x + cell.x, origin.y + cell.y), into: &inner)
    inner.append(content)
    inner.escape("8")
    wrap(inner.bytes, into: &out)
  }
}
