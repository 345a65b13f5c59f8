/// What tmux does with passthrough (`ESC P tmux ; … ESC \`, inner ESCs doubled): the bytes it
/// hands to the outer terminal, and the bytes it reads itself. A sequence that breaks the
/// rules (an undoubled ESC inside, no end) is an error, as tmux would drop or misread it.
struct TmuxWire {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The outer terminal's bytes, every passthrough sequence's content joined in order (tmux
  /// writes its own resets between them, which this leaves out).
  var passedThrough: [UInt8] = []
  /// Each passthrough sequence's content: what reaches the outer terminal in one piece.
  var contents: [[UInt8]] = []
  /// The bytes outside passthrough sequences: what tmux reads as the pane's output.
  var pane: [UInt8] = []
  /// How many passthrough sequences there were, and the longest one's length on the wire.
  var sequences = 0
  var longestSequence = 0

  init(_ bytes: [UInt8]) throws {
    let opening: [UInt8] = [0x1B, 0x50] + Array("tmux;".utf8)
    var index = 0
    while index < bytes.count {
      if bytes[index...].starts(with: opening) {
        let start = index
        let contentStart = passedThrough.count
        index += opening.count
        var ended = false
        while index < bytes.count {
          let byte = bytes[index]
          if byte == 0x1B {
            guard index + 1 < bytes.count else { break }
            let next = bytes[index + 1]
            if next == 0x1B {
              passedThrough.append(0x1B)
              index += 2
              continue
            }
            if next == 0x5C {
              index += 2
              ended = true
              break
            }
            throw Failure(description: "an undoubled ESC inside passthrough at \(index)")
          }
          passedThrough.append(byte)
          index += 1
        }
        guard ended else { throw Failure(description: "a passthrough sequence never ends") }
        contents.append(Array(passedThrough[contentStart...]))
        sequences += 1
        longestSequence = max(longestSequence, index - start)
        continue
      }
      pane.append(bytes[index])
      index += 1
    }
  }

  /// Whether `bytes` appear in `haystack`.
  static func contains(_ haystack: [UInt8], _ bytes: [UInt8]) -> Bool {
    guard !bytes.isEmpty, haystack.count >= bytes.count else { return bytes.isEmpty }
    for start in 0...(haystack.count - bytes.count)
    where haystack[start..<(start + bytes.count)].elementsEqual(bytes) {
      return true
    }
    return false
  }
}
