import Foundation

extension FuzzHarnesses {
  static let moduleHarnesses: [String: @Sendable (UnsafeRawBufferPointer) -> Void] = [
    // Any bit pattern of a Double, into any range: never traps, always lands inside.
    "clamping": { bytes in
      guard bytes.count >= 24 else { return }
      let value = bytes.loadUnaligned(as: Double.self)
      let a = bytes.loadUnaligned(fromByteOffset: 8, as: Int.self)
      let b = bytes.loadUnaligned(fromByteOffset: 16, as: Int.self)
      let range = min(a, b)...max(a, b)
      precondition(range.contains(Int(clamping: value, to: range)))
      precondition(range.contains(a.clamped(to: range)))
      let clamped = value.clamped(to: -1...1)
      precondition(clamped >= -1 && clamped <= 1)
    },
    // Any text as an HTTP date (a server's Expires, a client's If-Modified-Since): a date
    // read is written back as text that reads to the same instant; any instant is written
    // as a date that reads back.
    "http-date": { bytes in
      let now = Date(timeIntervalSince1970: 1_795_000_000)
      if let date = HTTPDate.parse(String(decoding: bytes, as: UTF8.self), now: now) {
        precondition(HTTPDate.parse(HTTPDate.format(date), now: now) == date)
      }
      guard bytes.count >= 8 else { return }
      let instant = Date(timeIntervalSince1970: bytes.loadUnaligned(as: Double.self))
      precondition(HTTPDate.parse(HTTPDate.format(instant), now: now) != nil)
    },
    // Any bytes as a file's name: carried in a string and back to the same bytes; shown
    // with no escape scalar; valid UTF-8 without escape scalars is its plain string.
    "file-system-name": { bytes in
      let name = Array(bytes)
      let string = FileSystemName.string(name)
      precondition(FileSystemName.bytes(of: string) == name, "the name's bytes did not come back")
      FileSystemName.withCString(string) { pointer in
        precondition(strlen(pointer) == (name.firstIndex(of: 0) ?? name.count))
        precondition(
          name.prefix(strlen(pointer)).elementsEqual(
            UnsafeBufferPointer(start: pointer, count: strlen(pointer)).map {
              UInt8(bitPattern: $0)
            }))
      }
      precondition(
        !FileSystemName.displayed(string).unicodeScalars.contains(where: FileSystemName.isEscape))
      if let plain = String(validating: name, as: UTF8.self) {
        let hasEscapes = plain.unicodeScalars.contains(where: FileSystemName.isEscape)
        precondition(hasEscapes || string == plain)
        // A string from a person (no escapes) is itself after a trip through its bytes.
        if !hasEscapes {
          precondition(FileSystemName.string(FileSystemName.bytes(of: plain)) == plain)
        }
      }
    },
  ]
}
