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
    }
  ]
}
