import CPNG

/// PNG files and zlib streams written by the system's libpng and zlib (``CPNG``): the one
/// place Swift code hands them pixels, so every caller gets the same checks and frees.
package enum PNGWriter {
  /// Which of PNG's row filters libpng may choose from.
  package enum Filters: Sendable {
    /// None: what the PNG specification recommends for palette images, whose indices are
    /// not magnitudes a difference would make smaller.
    case none
    /// Sub only: little work, most of the gain on smooth pictures.
    case fast
    /// All five, chosen per row by libpng: the smallest file.
    case all
  }

  /// How a text chunk is stored.
  package enum TextKind: Sendable {
    /// tEXt: Latin-1, plain.
    case plain
    /// zTXt: Latin-1, deflated.
    case deflated
    /// iTXt with its compression flag: UTF-8, deflated.
    case internationalDeflated
  }

  /// A text chunk: keyword and text as the bytes to store (Latin-1, or UTF-8 for iTXt).
  package struct Text: Sendable {
    package var key: [UInt8]
    package var value: [UInt8]
    package var kind: TextKind

    package init(key: [UInt8], value: [UInt8], kind: TextKind = .plain) {
      self.key = key
      self.value = value
      self.kind = kind
    }
  }

  /// `rgba` (exactly width × height × 4 bytes) as a PNG: RGB when `dropAlpha`, RGBA otherwise,
  /// at zlib `level` (0–9), with `text` before the pixels. Nil when libpng refuses (a size
  /// that does not add up, a keyword libpng rejects, no memory). O(pixels) plus deflate.
  package static func encode(
    rgba: [UInt8], width: Int, height: Int, dropAlpha: Bool, level: Int, filters: Filters,
    text: [Text] = []
  ) -> [UInt8]? {
    guard width > 0, height > 0, (0...9).contains(level),
      let width32 = Int32(exactly: width), let height32 = Int32(exactly: height)
    else { return nil }
    // NUL-terminated copies, alive until libpng has written them.
    let strings = text.flatMap { [$0.key + [0], $0.value + [0]] }.map { bytes in
      let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
      for (index, byte) in bytes.enumerated() { buffer[index] = CChar(bitPattern: byte) }
      return buffer
    }
    defer { strings.forEach { $0.deallocate() } }
    var entries = text.indices.map { index in
      TesseraPNGText(
        key: strings[index * 2], text: strings[index * 2 + 1], kind: cKind(text[index].kind))
    }
    return taking { out, length in
      rgba.withUnsafeBufferPointer { pixels in
        entries.withUnsafeMutableBufferPointer { entries in
          tessera_png_encode(
            pixels.baseAddress, pixels.count, width32, height32, dropAlpha ? 1 : 0, Int32(level),
            cFilters(filters), entries.baseAddress, Int32(entries.count), &out, &length, nil, 0)
        }
      }
    }
  }

  /// A palette image as a PNG: `indices` (exactly width × height, each below the palette's
  /// count) into `palette` (1–256 colours, 0–255 per channel), at zlib `level` (0–9). Nil
  /// when the arguments do not add up or libpng fails. O(pixels) plus deflate.
  package static func encode(
    indices: [UInt8], width: Int, height: Int, palette: [(red: UInt8, green: UInt8, blue: UInt8)],
    level: Int, filters: Filters
  ) -> [UInt8]? {
    guard width > 0, height > 0, (0...9).contains(level), (1...256).contains(palette.count),
      let width32 = Int32(exactly: width), let height32 = Int32(exactly: height)
    else { return nil }
    let rgb = palette.flatMap { [$0.red, $0.green, $0.blue] }
    return taking { out, length in
      indices.withUnsafeBufferPointer { indices in
        rgb.withUnsafeBufferPointer { rgb in
          tessera_png_encode_indexed(
            indices.baseAddress, indices.count, width32, height32, rgb.baseAddress,
            Int32(palette.count), Int32(level), cFilters(filters), &out, &length, nil, 0)
        }
      }
    }
  }

  /// `bytes` as one zlib stream at `level` (0–9). Nil when zlib fails. O(n).
  package static func deflate(_ bytes: [UInt8], level: Int) -> [UInt8]? {
    guard (0...9).contains(level) else { return nil }
    return taking { out, length in
      bytes.withUnsafeBufferPointer {
        tessera_zlib_compress($0.baseAddress, $0.count, Int32(level), &out, &length)
      }
    }
  }

  /// The data of one whole zlib stream, nil when `bytes` are not one or it would be longer
  /// than `maxBytes`: inflating stops there, so a small hostile stream cannot expand without
  /// bound. O(n + maxBytes).
  package static func inflate(_ bytes: ArraySlice<UInt8>, maxBytes: Int) -> [UInt8]? {
    guard maxBytes > 0 else { return nil }
    return taking { out, length in
      bytes.withUnsafeBufferPointer {
        tessera_zlib_uncompress($0.baseAddress, $0.count, maxBytes, &out, &length)
      }
    }
  }

  /// zlib's CRC-32 of `bytes`, the checksum PNG chunks carry. O(n).
  package static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    bytes.withUnsafeBufferPointer { tessera_crc32(0, $0.baseAddress, $0.count) }
  }

  private static func cFilters(_ filters: Filters) -> TesseraPNGFilters {
    switch filters {
    case .none: TESSERA_PNG_FILTERS_NONE
    case .fast: TESSERA_PNG_FILTERS_FAST
    case .all: TESSERA_PNG_FILTERS_ALL
    }
  }

  private static func cKind(_ kind: TextKind) -> TesseraPNGTextKind {
    switch kind {
    case .plain: TESSERA_PNG_TEXT_PLAIN
    case .deflated: TESSERA_PNG_TEXT_DEFLATED
    case .internationalDeflated: TESSERA_PNG_TEXT_INTERNATIONAL_DEFLATED
    }
  }

  /// The bytes a C encoder returned in malloc'd memory, copied out and freed; nil on failure.
  private static func taking(
    _ encode: (inout UnsafeMutablePointer<UInt8>?, inout Int) -> Int32
  ) -> [UInt8]? {
    var out: UnsafeMutablePointer<UInt8>?
    var length = 0
    guard encode(&out, &length) == 0, let out else { return nil }
    defer { tessera_png_free(out) }
    return [UInt8](UnsafeBufferPointer(start: out, count: length))
  }
}
