/// File names and paths as the file system has them: bytes, which are not always UTF-8 (a
/// camera card written by an old system, an archive from another locale, a hostile folder).
/// A Swift `String` cannot hold bytes that are not UTF-8, and decoding with repair would turn
/// such a name into another that does not exist; so each byte that is not part of valid UTF-8
/// is carried in the string as one scalar of a private-use range (U+10FF80…U+10FFFF, the byte
/// plus U+10FF00), as Python's `surrogateescape` carries it in a lone surrogate (which Swift's
/// strings cannot hold). Every system call with a path turns it back into its bytes
/// (`withCString`), and what a person reads shows each such byte as U+FFFD
/// (`TerminalText`).
///
/// The mapping is one-to-one: the scalars of the range, which valid UTF-8 could spell too,
/// are escaped byte by byte like invalid bytes, so `bytes(of: string(bytes)) == bytes` for
/// any bytes, and a name that is valid UTF-8 without those scalars is its plain string.
///
/// - Complexity: O(n) in the bytes or scalars.
package enum FileSystemName {
  /// The scalars that carry one byte each.
  package static let escapes: ClosedRange<UInt32> = 0x10_FF80...0x10_FFFF

  /// Whether `scalar` carries a byte of a name that is not UTF-8.
  @inline(__always)
  package static func isEscape(_ scalar: Unicode.Scalar) -> Bool {
    escapes.contains(scalar.value)
  }

  /// The string for a name's or path's bytes: valid UTF-8 as it is, every other byte as its
  /// escape scalar.
  package static func string(_ bytes: some Collection<UInt8>) -> String {
    let bytes = Array(bytes)
    // The common case: valid UTF-8 without escape scalars is its own string.
    if let plain = String(validating: bytes, as: UTF8.self),
      !plain.unicodeScalars.contains(where: isEscape)
    {
      return plain
    }
    var scalars = String.UnicodeScalarView()
    var index = 0
    while index < bytes.count {
      if let (scalar, length) = scalar(in: bytes, at: index), !isEscape(scalar) {
        scalars.append(scalar)
        index += length
      } else {
        scalars.append(Unicode.Scalar(0x10_FF00 + UInt32(bytes[index]))!)
        index += 1
      }
    }
    return String(scalars)
  }

  /// The bytes a string made by ``string(_:)`` stands for: each escape scalar its byte, every
  /// other scalar its UTF-8.
  package static func bytes(of path: String) -> [UInt8] {
    guard path.unicodeScalars.contains(where: isEscape) else { return Array(path.utf8) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(path.utf8.count)
    for scalar in path.unicodeScalars {
      if isEscape(scalar) {
        bytes.append(UInt8(scalar.value - 0x10_FF00))
      } else {
        bytes.append(contentsOf: String(scalar).utf8)
      }
    }
    return bytes
  }

  /// Calls `body` with the NUL-terminated bytes of `path`, for a system call.
  package static func withCString<Result>(
    _ path: String, _ body: (UnsafePointer<CChar>) throws -> Result
  ) rethrows -> Result {
    guard path.unicodeScalars.contains(where: isEscape) else {
      return try path.withCString(body)
    }
    let terminated = bytes(of: path).map { CChar(bitPattern: $0) } + [0]
    return try terminated.withUnsafeBufferPointer { try body($0.baseAddress!) }
  }

  /// `path` as a person reads it: each byte that was not UTF-8 shown as U+FFFD.
  package static func displayed(_ path: String) -> String {
    guard path.unicodeScalars.contains(where: isEscape) else { return path }
    return String(
      String.UnicodeScalarView(path.unicodeScalars.map { isEscape($0) ? "\u{FFFD}" : $0 }))
  }

  /// The scalar whose valid UTF-8 starts at `index`, and its length in bytes; nil when the
  /// bytes there are not valid UTF-8 (a stray continuation byte, a cut or overlong sequence,
  /// a surrogate, a value past U+10FFFF).
  private static func scalar(in bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
    let lead = bytes[index]
    let length: Int
    let minimum: UInt32
    var value: UInt32
    switch lead {
    case 0x00...0x7F: return (Unicode.Scalar(lead), 1)
    case 0xC2...0xDF: (length, minimum, value) = (2, 0x80, UInt32(lead & 0x1F))
    case 0xE0...0xEF: (length, minimum, value) = (3, 0x800, UInt32(lead & 0x0F))
    case 0xF0...0xF4: (length, minimum, value) = (4, 0x1_0000, UInt32(lead & 0x07))
    default: return nil
    }
    guard bytes.count - index >= length else { return nil }
    for offset in 1..<length {
      let byte = bytes[index + offset]
      guard byte & 0xC0 == 0x80 else { return nil }
      value = value << 6 | UInt32(byte & 0x3F)
    }
    guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
    return (scalar, length)
  }
}
