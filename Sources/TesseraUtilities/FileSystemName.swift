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
    func escape(_ bytes: some Sequence<UInt8>) {
      for byte in bytes { scalars.append(Unicode.Scalar(0x10_FF00 + UInt32(byte))!) }
    }
    // The standard library's decoder says how many bytes each scalar or each maximal invalid
    // part spans; `index` follows it through `bytes`.
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var index = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        let scalar = Unicode.UTF8.decode(encoded)
        if isEscape(scalar) { escape(encoded) } else { scalars.append(scalar) }
        index += encoded.count
      case .error(let length):
        escape(bytes[index..<index + length])
        index += length
      case .emptyInput:
        return String(scalars)
      }
    }
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
        Unicode.UTF8.encode(scalar) { bytes.append($0) }
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
}
