/// A small, independent DEFLATE decoder (RFC 1951) and zlib/PNG readers, written from the
/// RFCs for the tests: what the encoder writes is read back by code that shares nothing with
/// it, and a stream that breaks the format throws instead of decoding to something else.
struct Inflater {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  private let input: [UInt8]
  private var position = 0
  private var bitBuffer = 0
  private var bitCount = 0
  private(set) var output: [UInt8] = []

  /// The data of a zlib stream; checks the header and the Adler-32.
  static func zlib(_ bytes: [UInt8]) throws -> [UInt8] {
    guard bytes.count >= 6, bytes[0] & 0x0F == 8, (Int(bytes[0]) << 8 | Int(bytes[1])) % 31 == 0
    else { throw Failure(description: "not a zlib header") }
    var inflater = Inflater(input: Array(bytes[2...]))
    try inflater.run()
    let end = 2 + inflater.position
    guard bytes.count >= end + 4 else { throw Failure(description: "no Adler-32") }
    let stored = bytes[end..<(end + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in inflater.output {
      a = (a + UInt32(byte)) % 65521
      b = (b + a) % 65521
    }
    guard stored == b << 16 | a else { throw Failure(description: "Adler-32 mismatch") }
    return inflater.output
  }

  /// RGBA pixels of a PNG (8-bit RGB or RGBA, not interlaced), and its size.
  static func png(_ bytes: [UInt8]) throws -> (width: Int, height: Int, rgba: [UInt8]) {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    guard bytes.count > 8, Array(bytes[0..<8]) == signature else {
      throw Failure(description: "not a PNG")
    }
    var offset = 8
    var width = 0
    var height = 0
    var channels = 0
    var idat: [UInt8] = []
    func be32(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
    while offset + 12 <= bytes.count {
      let length = be32(offset)
      let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
      let data = Array(bytes[(offset + 8)..<(offset + 8 + length)])
      switch type {
      case "IHDR":
        width = data[0..<4].reduce(0) { $0 << 8 | Int($1) }
        height = data[4..<8].reduce(0) { $0 << 8 | Int($1) }
        guard data[8] == 8, data[12] == 0 else { throw Failure(description: "unsupported PNG") }
        channels = data[9] == 2 ? 3 : data[9] == 6 ? 4 : 0
      case "IDAT": idat += data
      default: break
      }
      offset += 12 + length
    }
    guard channels > 0 else { throw Failure(description: "unsupported colour type") }
    let filtered = try zlib(idat)
    let stride = width * channels
    guard filtered.count == (stride + 1) * height else {
      throw Failure(description: "IDAT holds \(filtered.count) bytes, not \((stride + 1) * height)")
    }
    var raw = [UInt8](repeating: 0, count: stride * height)
    for row in 0..<height {
      let type = filtered[row * (stride + 1)]
      for index in 0..<stride {
        let value = Int(filtered[row * (stride + 1) + 1 + index])
        let left = index >= channels ? Int(raw[row * stride + index - channels]) : 0
        let up = row > 0 ? Int(raw[(row - 1) * stride + index]) : 0
        let upLeft =
          row > 0 && index >= channels ? Int(raw[(row - 1) * stride + index - channels]) : 0
        let predictor: Int
        switch type {
        case 0: predictor = 0
        case 1: predictor = left
        case 2: predictor = up
        case 3: predictor = (left + up) / 2
        case 4:
          let p = left + up - upLeft
          let (pa, pb, pc) = (abs(p - left), abs(p - up), abs(p - upLeft))
          predictor = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft
        default: throw Failure(description: "filter type \(type)")
        }
        raw[row * stride + index] = UInt8(truncatingIfNeeded: value + predictor)
      }
    }
    return (width, height, rgba(raw, channels: channels))
  }

  /// Pixel bytes with 3 or 4 channels as RGBA.
  static func rgba(_ raw: [UInt8], channels: Int) -> [UInt8] {
    guard channels == 3 else { return raw }
    var out: [UInt8] = []
    out.reserveCapacity(raw.count / 3 * 4)
    for pixel in 0..<(raw.count / 3) { out += raw[(pixel * 3)..<(pixel * 3 + 3)] + [255] }
    return out
  }

  private init(input: [UInt8]) { self.input = input }

  private mutating func bits(_ count: Int) throws -> Int {
    while bitCount < count {
      guard position < input.count else { throw Failure(description: "stream ends early") }
      bitBuffer |= Int(input[position]) << bitCount
      position += 1
      bitCount += 8
    }
    let value = bitBuffer & ((1 << count) - 1)
    bitBuffer >>= count
    bitCount -= count
    return value
  }

  /// A canonical Huffman decoding table: (length, code) → symbol.
  private struct Table {
    var symbols: [Int: Int] = [:]
    init(lengths: [Int]) throws {
      var counts = [Int](repeating: 0, count: 16)
      for length in lengths where length > 0 { counts[length] += 1 }
      var code = 0
      var next = [Int](repeating: 0, count: 16)
      for length in 1..<16 {
        code = (code + counts[length - 1]) << 1
        next[length] = code
      }
      for (symbol, length) in lengths.enumerated() where length > 0 {
        symbols[length << 16 | next[length]] = symbol
        next[length] += 1
      }
    }
  }

  private mutating func decode(_ table: Table) throws -> Int {
    var code = 0
    for length in 1...15 {
      code = code << 1 | (try bits(1))
      if let symbol = table.symbols[length << 16 | code] { return symbol }
    }
    throw Failure(description: "no such Huffman code")
  }

  private mutating func run() throws {
    let lengthBase = [
      3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
      131, 163, 195, 227, 258,
    ]
    let lengthExtra = [
      0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    let distanceBase = [
      1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
      2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
    ]
    let distanceExtra = [
      0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
      13,
    ]
    var final = 0
    repeat {
      final = try bits(1)
      let type = try bits(2)
      switch type {
      case 0:
        bitBuffer = 0
        bitCount = 0
        guard position + 4 <= input.count else { throw Failure(description: "stored header") }
        let length = Int(input[position]) | Int(input[position + 1]) << 8
        position += 4
        guard position + length <= input.count else { throw Failure(description: "stored data") }
        output += input[position..<(position + length)]
        position += length
        continue
      case 1, 2:
        var literalLengths: [Int]
        var distanceLengths: [Int]
        if type == 1 {
          literalLengths =
            [Int](repeating: 8, count: 144) + [Int](repeating: 9, count: 112)
            + [Int](repeating: 7, count: 24) + [Int](repeating: 8, count: 8)
          distanceLengths = [Int](repeating: 5, count: 30)
        } else {
          let literalCount = try bits(5) + 257
          let distanceCount = try bits(5) + 1
          let codeLengthCount = try bits(4) + 4
          let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
          var codeLengths = [Int](repeating: 0, count: 19)
          for index in 0..<codeLengthCount { codeLengths[order[index]] = try bits(3) }
          let codeLengthTable = try Table(lengths: codeLengths)
          var lengths: [Int] = []
          while lengths.count < literalCount + distanceCount {
            let symbol = try decode(codeLengthTable)
            switch symbol {
            case 0...15: lengths.append(symbol)
            case 16:
              guard let last = lengths.last else { throw Failure(description: "repeat first") }
              lengths += [Int](repeating: last, count: 3 + (try bits(2)))
            case 17: lengths += [Int](repeating: 0, count: 3 + (try bits(3)))
            default: lengths += [Int](repeating: 0, count: 11 + (try bits(7)))
            }
          }
          guard lengths.count == literalCount + distanceCount else {
            throw Failure(description: "code lengths overrun")
          }
          literalLengths = Array(lengths[0..<literalCount])
          distanceLengths = Array(lengths[literalCount...])
          guard literalLengths[256] > 0 else { throw Failure(description: "no end of block") }
        }
        let literals = try Table(lengths: literalLengths)
        let distances = try Table(lengths: distanceLengths)
        while true {
          let symbol = try decode(literals)
          if symbol < 256 {
            output.append(UInt8(symbol))
          } else if symbol == 256 {
            break
          } else {
            let index = symbol - 257
            guard index < 29 else { throw Failure(description: "length symbol \(symbol)") }
            let length = lengthBase[index] + (try bits(lengthExtra[index]))
            let distanceSymbol = try decode(distances)
            guard distanceSymbol < 30 else { throw Failure(description: "distance symbol") }
            let distance = distanceBase[distanceSymbol] + (try bits(distanceExtra[distanceSymbol]))
            guard distance <= output.count else { throw Failure(description: "distance too far") }
            for _ in 0..<length { output.append(output[output.count - distance]) }
          }
        }
      default:
        throw Failure(description: "block type 3")
      }
    } while final == 0
  }
}
