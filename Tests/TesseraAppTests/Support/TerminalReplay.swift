import Foundation

/// The text of a terminal that cannot tell its own (Konsole 22.12 has no text getter): the
/// gallery runs under `script`, which records every byte it writes, and the record is played
/// into a private, detached tmux of the same size, whose copy of the pane is the text. Both
/// terminals lay out the same cursor moves and characters; images are not text, so the
/// graphics payloads are dropped before the replay (they are most of the bytes, and tmux would
/// only discard them).
enum TerminalReplay {
  /// The command line that runs `program` under `script`, its output recorded in `record`
  /// (flushed on every write, so the record is current whenever the screen is still).
  static func recording(_ program: [String], into record: String) -> [String] {
    [
      "script", "--quiet", "--flush", "--command", program.map(Tmux.quote).joined(separator: " "),
      record,
    ]
  }

  /// The screen `record` leaves in a `columns`×`rows` terminal, one line a row.
  static func text(ofRecord record: String, columns: Int, rows: Int) throws -> String {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: record))
    let replay = record + ".replay"
    try Data([0x1B, 0x5B, 0x31, 0x53] + withoutGraphics(withoutHeader(bytes))).write(
      to: URL(fileURLWithPath: replay))
    // No echo: tmux answers the record's queries (DA1, XTVERSION) into the pane, and a
    // terminal that echoed them would write the answers on the screen.
    let tmux = try Tmux(
      command: ["sh", "-c", "stty -echo; cat \(Tmux.quote(replay)); exec sleep 600"],
      columns: columns, rows: rows)
    let deadline = ContinuousClock.now + .seconds(20)
    while try tmux.paneValue("pane_current_command") != "sleep" {
      guard ContinuousClock.now < deadline else {
        throw Tmux.Failure(description: "the replay of \(bytes.count) bytes did not finish")
      }
      Thread.sleep(forTimeInterval: 0.01)
    }
    return Tmux.plain(try tmux.capture())
  }

  /// `script` starts its record with a line of its own ("Script started on …") and, once the
  /// program has exited, ends it with another ("Script done on …"): neither is the program's.
  static func withoutHeader(_ bytes: Data) -> Data.SubSequence {
    var output = bytes[...]
    if output.starts(with: Array("Script started".utf8)),
      let newline = output.firstIndex(of: UInt8(ascii: "\n"))
    {
      output = output[(newline + 1)...]
    }
    if let trailer = output.ranges(of: Array("\nScript done on ".utf8)).last {
      output = output[..<trailer.lowerBound]
    }
    return output
  }

  /// `bytes` without the strings that carry images: APC (kitty), DCS (sixel) and OSC 1337
  /// (iTerm2), each up to its terminator (ST, or BEL for OSC) or the end. O(n).
  static func withoutGraphics(_ bytes: some Collection<UInt8>) -> [UInt8] {
    let escape: UInt8 = 0x1B
    let bell: UInt8 = 0x07
    let input = Array(bytes)
    var output: [UInt8] = []
    output.reserveCapacity(input.count)
    var index = 0
    while index < input.count {
      let byte = input[index]
      let next = index + 1 < input.count ? input[index + 1] : 0
      let isImage =
        byte == escape
        && (next == UInt8(ascii: "_") || next == UInt8(ascii: "P")
          || (next == UInt8(ascii: "]") && input[(index + 2)...].starts(with: Array("1337;".utf8))))
      guard isImage else {
        output.append(byte)
        index += 1
        continue
      }
      let endsAtBell = next == UInt8(ascii: "]")
      index += 2
      while index < input.count {
        if endsAtBell, input[index] == bell {
          index += 1
          break
        }
        if input[index] == escape, index + 1 < input.count, input[index + 1] == UInt8(ascii: "\\") {
          index += 2
          break
        }
        index += 1
      }
    }
    return output
  }
}
