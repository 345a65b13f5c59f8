import TesseraUtilities

extension InputParser {
  /// A parsed control sequence: `ESC [ prefix params intermediates final`.
  struct ControlSequence {
    var prefix: UInt8?
    var parameters: [Int]
    var intermediates: [UInt8]
    var final: UInt8

    func parameter(_ index: Int, default value: Int) -> Int {
      index < parameters.count && parameters[index] >= 0 ? parameters[index] : value
    }
  }

  static func csi(_ bytes: ArraySlice<UInt8>) -> Step {
    let start = bytes.startIndex
    var index = start + 2
    var prefix: UInt8?
    if index < bytes.endIndex, (0x3C...0x3F).contains(bytes[index]) {
      prefix = bytes[index]
      index += 1
    }
    var parameters: [Int] = []
    var current = -1
    var intermediates: [UInt8] = []
    while index < bytes.endIndex {
      let byte = bytes[index]
      switch byte {
      case 0x30...0x39:
        // Saturates: a 30-digit parameter is the maximum, never an overflow.
        let digit = Int(byte - 0x30)
        current = current < 0 ? digit : min(current * 10 + digit, TerminalLimits.maximumParameter)
      case 0x3B:
        if parameters.count < TerminalLimits.maximumParameters { parameters.append(current) }
        current = -1
      case 0x3A, 0x3C...0x3F:
        break  // Sub-parameters and private markers we do not use.
      case 0x20...0x2F:
        intermediates.append(byte)
      case 0x40...0x7E:
        if parameters.count < TerminalLimits.maximumParameters { parameters.append(current) }
        let sequence = ControlSequence(
          prefix: prefix, parameters: parameters, intermediates: intermediates, final: byte)
        let consumed = index + 1 - start
        if byte == 0x4D, prefix == nil, parameters == [-1] {
          return legacyMouse(bytes, headerLength: consumed)
        }
        if byte == 0x7E, prefix == nil, parameters == [200] {
          return .pasteBegins(consumed: consumed)
        }
        return .produced(event(for: sequence), consumed: consumed)
      default:
        // A control byte inside a sequence: the sequence was garbage; drop it.
        return .produced(nil, consumed: index - start)
      }
      index += 1
    }
    return .incomplete
  }

  /// X10 mouse: `ESC [ M` then three bytes (button + 32, column + 33, row + 33).
  static func legacyMouse(_ bytes: ArraySlice<UInt8>, headerLength: Int) -> Step {
    let start = bytes.startIndex
    guard bytes.count >= headerLength + 3 else { return .incomplete }
    let code = Int(bytes[start + headerLength]) - 32
    let column = Int(bytes[start + headerLength + 1]) - 33
    let row = Int(bytes[start + headerLength + 2]) - 33
    let event = mouse(code: code, column: column, row: row, released: code & 3 == 3)
    return .produced(event.map { .mouse($0) }, consumed: headerLength + 3)
  }

  /// A mouse report's event; coordinates past the largest screen are clamped to its edge.
  static func mouse(code: Int, column: Int, row: Int, released: Bool) -> MouseEvent? {
    guard code >= 0, column >= 0, row >= 0 else { return nil }
    let column = min(column, TerminalLimits.maximumColumns - 1)
    let row = min(row, TerminalLimits.maximumRows - 1)
    var modifiers: KeyModifiers = []
    if code & 4 != 0 { modifiers.insert(.shift) }
    if code & 8 != 0 { modifiers.insert(.alt) }
    if code & 16 != 0 { modifiers.insert(.control) }
    let button = code & 3
    let kind: MouseEvent.Kind
    if code & 64 != 0 {
      kind = [.wheelUp, .wheelDown, .wheelLeft, .wheelRight][button]
    } else if code & 32 != 0 {
      kind = button == 3 ? .move : .drag(button: button)
    } else if released {
      kind = .release(button: button == 3 ? 0 : button)
    } else {
      kind = .press(button: button)
    }
    return MouseEvent(kind: kind, column: column, row: row, modifiers: modifiers)
  }

  static func event(for sequence: ControlSequence) -> InputEvent? {
    let modifiers = KeyModifiers(xtermParameter: sequence.parameter(1, default: 1))
    switch (sequence.prefix, sequence.final) {
    case (nil, 0x41): return .key(.up, modifiers)
    case (nil, 0x42): return .key(.down, modifiers)
    case (nil, 0x43): return .key(.right, modifiers)
    case (nil, 0x44): return .key(.left, modifiers)
    case (nil, 0x48): return .key(.home, modifiers)
    case (nil, 0x46): return .key(.end, modifiers)
    case (nil, 0x50...0x53): return .key(.function(Int(sequence.final) - 0x50 + 1), modifiers)
    case (nil, 0x5A): return .key(.backTab, [.shift])
    case (nil, 0x49): return .focus(true)
    case (nil, 0x4F): return .focus(false)
    case (nil, 0x7E): return tilde(sequence.parameter(0, default: 0), modifiers)
    case (nil, 0x75): return kittyKey(sequence)
    case (nil, 0x74): return windowReport(sequence)
    case (0x3C, 0x4D), (0x3C, 0x6D):
      return mouse(
        code: sequence.parameter(0, default: -1), column: sequence.parameter(1, default: 0) - 1,
        row: sequence.parameter(2, default: 0) - 1, released: sequence.final == 0x6D
      ).map { .mouse($0) }
    case (0x3F, 0x63):
      return .reply(.primaryDeviceAttributes(sequence.parameters.filter { $0 >= 0 }))
    case (0x3F, 0x79) where sequence.intermediates == [0x24]:
      return .reply(
        .modeReport(
          mode: sequence.parameter(0, default: 0), state: sequence.parameter(1, default: 0)))
    default: return nil
    }
  }

  static func tilde(_ code: Int, _ modifiers: KeyModifiers) -> InputEvent? {
    let key: Key
    switch code {
    case 1, 7: key = .home
    case 4, 8: key = .end
    case 2: key = .insert
    case 3: key = .delete
    case 5: key = .pageUp
    case 6: key = .pageDown
    case 11...15: key = .function(code - 10)
    case 17...21: key = .function(code - 11)
    case 23, 24: key = .function(code - 12)
    default: return nil
    }
    return .key(key, modifiers)
  }

  /// The kitty keyboard protocol's `CSI code ; modifiers u`, for terminals that send it.
  static func kittyKey(_ sequence: ControlSequence) -> InputEvent? {
    let modifiers = KeyModifiers(xtermParameter: sequence.parameter(1, default: 1))
    switch sequence.parameter(0, default: -1) {
    case 27: return .key(.escape, modifiers)
    case 13: return .key(.enter, modifiers)
    case 9: return .key(.tab, modifiers)
    case 127: return .key(.backspace, modifiers)
    case let code where code >= 0x20:
      guard let scalar = Unicode.Scalar(UInt32(code)) else { return nil }
      if modifiers.contains(.control), scalar.properties.isAlphabetic, scalar.isASCII {
        return .key(.control(Character(scalar)), modifiers)
      }
      return .key(.character(Character(scalar)), modifiers)
    default: return nil
    }
  }

  /// Window reports (XTWINOPS), every number clamped to ``TerminalLimits``:
  /// `CSI 48 ; rows ; cols ; height px ; width px t` (mode 2048, a resize),
  /// `CSI 8 ; rows ; cols t` (text area in cells), `CSI 4 ; height ; width t` (text area in
  /// pixels) and `CSI 6 ; height ; width t` (one cell in pixels). A report of zero is none.
  static func windowReport(_ sequence: ControlSequence) -> InputEvent? {
    let first = sequence.parameter(1, default: 0)
    let second = sequence.parameter(2, default: 0)
    switch sequence.parameter(0, default: 0) {
    case 48:
      return TerminalLimits.windowSize(
        columns: second, rows: first, pixelWidth: sequence.parameter(4, default: 0),
        pixelHeight: sequence.parameter(3, default: 0)
      ).map { .resize($0) }
    case 8:
      return TerminalLimits.windowSize(columns: second, rows: first, pixelWidth: 0, pixelHeight: 0)
        .map { .reply(.textAreaSize($0)) }
    case 4:
      guard first > 0, second > 0 else { return nil }
      let range = TerminalLimits.windowPixelRange
      return .reply(
        .textAreaPixels(
          PixelSize(width: second.clamped(to: range), height: first.clamped(to: range))))
    case 6:
      return TerminalLimits.cellSize(width: second, height: first).map {
        .reply(.cellPixelSize($0))
      }
    default:
      return nil
    }
  }
}
