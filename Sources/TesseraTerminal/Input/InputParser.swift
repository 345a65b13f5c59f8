/// Decodes terminal input bytes into events: keys, SGR mouse, focus, bracketed paste, in-band
/// resize and the replies to capability queries.
///
/// Pure and incremental: bytes may arrive split anywhere, and an incomplete sequence waits in
/// the parser for the next `feed`. A lone ESC is ambiguous (the Esc key, or the start of a
/// sequence); the caller decides after a short timeout by calling ``flush()``, which turns
/// whatever is pending into keys. Garbage never traps: unknown sequences are dropped, and
/// sequences, replies and pastes are bounded in length. O(n) in the bytes fed.
public struct InputParser: Sendable {
  /// Longest escape sequence or string (DCS/APC/OSC) kept waiting for its end.
  public static let maximumSequenceLength = TerminalLimits.maximumSequenceLength
  /// Longest paste kept; bytes past it are dropped until the paste ends.
  public static let maximumPasteLength = TerminalLimits.maximumPasteLength

  private var buffer: [UInt8] = []
  private var paste: [UInt8]?

  public init() {}

  /// Whether bytes are waiting that a timeout should resolve (see ``flush()``).
  public var needsTimeout: Bool { paste == nil && !buffer.isEmpty }

  /// Adds bytes and returns the events they complete.
  public mutating func feed(_ bytes: some Sequence<UInt8>) -> [InputEvent] {
    buffer.append(contentsOf: bytes)
    return drain(final: false)
  }

  /// Resolves pending bytes as if no more will follow: a lone ESC becomes the Esc key, an
  /// unfinished sequence becomes Esc followed by its bytes as keys. An unfinished paste stays.
  public mutating func flush() -> [InputEvent] {
    drain(final: true)
  }

  private mutating func drain(final: Bool) -> [InputEvent] {
    var events: [InputEvent] = []
    var start = 0
    while start < buffer.count {
      if paste != nil {
        guard let consumed = continuePaste(from: start, events: &events) else { break }
        start += consumed
        continue
      }
      switch Self.step(buffer[start...], final: final) {
      case .produced(let event, let consumed):
        if let event { events.append(event) }
        start += consumed
      case .pasteBegins(let consumed):
        paste = []
        start += consumed
      case .incomplete:
        if buffer.count - start > Self.maximumSequenceLength {
          start = buffer.count  // Garbage that never ends: drop it.
        }
        buffer.removeSubrange(0..<start)
        return events
      }
    }
    buffer.removeSubrange(0..<min(start, buffer.count))
    return events
  }

  /// Consumes paste bytes from `start`; returns how many, or nil when all that is left might
  /// be the start of the end marker.
  private mutating func continuePaste(from start: Int, events: inout [InputEvent]) -> Int? {
    let end: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]  // ESC [ 2 0 1 ~
    let slice = buffer[start...]
    if let found = Self.firstIndex(of: end, in: slice) {
      appendToPaste(slice[start..<found])
      events.append(.paste(String(decoding: paste ?? [], as: UTF8.self)))
      paste = nil
      return found + end.count - start
    }
    let keep = min(end.count - 1, slice.count)
    let safeEnd = buffer.count - keep
    guard safeEnd > start else { return nil }
    appendToPaste(buffer[start..<safeEnd])
    return safeEnd - start
  }

  private mutating func appendToPaste(_ bytes: ArraySlice<UInt8>) {
    let room = Self.maximumPasteLength - (paste?.count ?? 0)
    if room > 0 { paste?.append(contentsOf: bytes.prefix(room)) }
  }

  private static func firstIndex(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    var index = haystack.startIndex
    while index <= haystack.endIndex - needle.count {
      if haystack[index] == needle[0],
        haystack[index..<(index + needle.count)].elementsEqual(needle)
      {
        return index
      }
      index += 1
    }
    return nil
  }

  enum Step {
    case produced(InputEvent?, consumed: Int)
    case pasteBegins(consumed: Int)
    case incomplete
  }

  /// Decodes one event (or one ignored sequence) from the front of `bytes`.
  static func step(_ bytes: ArraySlice<UInt8>, final: Bool) -> Step {
    let start = bytes.startIndex
    let byte = bytes[start]
    if byte == 0x1B { return escape(bytes, final: final) }
    if byte < 0x80 { return .produced(plainKey(byte), consumed: 1) }
    return utf8(bytes, final: final)
  }

  static func plainKey(_ byte: UInt8) -> InputEvent? {
    switch byte {
    case 0x0D, 0x0A: return .key(.enter)
    case 0x09: return .key(.tab)
    case 0x7F, 0x08: return .key(.backspace)
    case 0x00: return .key(.control("@"), [.control])
    case 0x01...0x1A:
      return .key(.control(Character(Unicode.Scalar(byte + 0x60))), [.control])
    case 0x1C...0x1F:
      return .key(.control(Character(Unicode.Scalar(byte + 0x40))), [.control])
    case 0x20...0x7E: return .key(.character(Character(Unicode.Scalar(byte))))
    default: return nil
    }
  }

  static func utf8(_ bytes: ArraySlice<UInt8>, final: Bool) -> Step {
    let start = bytes.startIndex
    let lead = bytes[start]
    let length: Int
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF4: length = 4
    default: return .produced(nil, consumed: 1)
    }
    for offset in 1..<length {
      guard start + offset < bytes.endIndex else {
        return final ? .produced(nil, consumed: bytes.count) : .incomplete
      }
      if bytes[start + offset] & 0xC0 != 0x80 { return .produced(nil, consumed: offset) }
    }
    let text = String(decoding: bytes[start..<(start + length)], as: UTF8.self)
    guard let scalar = text.unicodeScalars.first, scalar.value != 0xFFFD else {
      return .produced(nil, consumed: length)
    }
    return .produced(.key(.character(Character(scalar))), consumed: length)
  }

  static func escape(_ bytes: ArraySlice<UInt8>, final: Bool) -> Step {
    let start = bytes.startIndex
    guard bytes.count >= 2 else {
      return final ? .produced(.key(.escape), consumed: 1) : .incomplete
    }
    let introducer = bytes[start + 1]
    let result: Step
    switch introducer {
    case 0x5B: result = csi(bytes)  // [
    case 0x4F: result = ss3(bytes)  // O
    case 0x50, 0x5F, 0x5D, 0x58, 0x5E: result = controlString(bytes)  // P _ ] X ^
    case 0x1B: return .produced(.key(.escape), consumed: 1)
    default:
      // ESC then a key: that key with Alt.
      switch step(bytes[(start + 1)...], final: final) {
      case .incomplete, .pasteBegins:
        return final ? .produced(.key(.escape), consumed: 1) : .incomplete
      case .produced(let event, let consumed):
        if case .key(let key, let modifiers) = event {
          return .produced(.key(key, modifiers.union(.alt)), consumed: consumed + 1)
        }
        return .produced(event, consumed: consumed + 1)
      }
    }
    if case .incomplete = result, final {
      // A timeout inside a sequence: the user pressed Esc, then keys.
      return .produced(.key(.escape), consumed: 1)
    }
    return result
  }

  static func ss3(_ bytes: ArraySlice<UInt8>) -> Step {
    let start = bytes.startIndex
    guard bytes.count >= 3 else { return .incomplete }
    let key: Key?
    switch bytes[start + 2] {
    case 0x41: key = .up
    case 0x42: key = .down
    case 0x43: key = .right
    case 0x44: key = .left
    case 0x48: key = .home
    case 0x46: key = .end
    case 0x4D: key = .enter
    case 0x50...0x53: key = .function(Int(bytes[start + 2]) - 0x50 + 1)
    default: key = nil
    }
    return .produced(key.map { .key($0) }, consumed: 3)
  }

  /// DCS, APC, OSC, SOS and PM: up to ST (ESC \), or BEL for OSC.
  static func controlString(_ bytes: ArraySlice<UInt8>) -> Step {
    let start = bytes.startIndex
    let kind = bytes[start + 1]
    var index = start + 2
    while index < bytes.endIndex {
      let byte = bytes[index]
      if byte == 0x07 && kind == 0x5D {
        return .produced(nil, consumed: index + 1 - start)
      }
      if byte == 0x1B {
        guard index + 1 < bytes.endIndex else { return .incomplete }
        guard bytes[index + 1] == 0x5C else {
          // An unterminated string cut by a new sequence: drop what came before it.
          return .produced(nil, consumed: index - start)
        }
        let payload = bytes[(start + 2)..<index]
        return .produced(controlStringEvent(kind: kind, payload), consumed: index + 2 - start)
      }
      index += 1
    }
    return .incomplete
  }

  static func controlStringEvent(kind: UInt8, _ payload: ArraySlice<UInt8>) -> InputEvent? {
    let text = String(decoding: payload, as: UTF8.self)
    if kind == 0x50, text.hasPrefix(">|") {
      return .reply(.version(String(text.dropFirst(2))))
    }
    if kind == 0x5F, text.hasPrefix("G") {
      let body = text.dropFirst()
      let parts = body.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
      var imageID = 0
      for pair in (parts.first ?? "").split(separator: ",") {
        let keyValue = pair.split(separator: "=", maxSplits: 1)
        if keyValue.count == 2, keyValue[0] == "i" {
          // Kitty ids are 32-bit; anything else is no id.
          imageID = UInt32(keyValue[1]).map(Int.init) ?? 0
        }
      }
      let message = parts.count > 1 ? String(parts[1]) : ""
      return .reply(.kittyGraphics(imageID: imageID, message: message))
    }
    return nil
  }
}
