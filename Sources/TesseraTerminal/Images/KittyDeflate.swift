/// A DEFLATE (RFC 1951) compressor in a zlib wrapper (RFC 1950), for kitty's compressed
/// uploads: `o=z` pixel data and the IDAT of PNG (`f=100`). The terminal module links no image
/// or compression library, and none is needed: LZ77 over a 32 KiB window with hash chains,
/// then dynamic Huffman blocks. It is not zlib's level 9; it is most of it for pixels, which
/// are what it compresses.
///
/// - Complexity: O(n × chain) time for n input bytes (the chain search is capped at
///   ``maximumChain`` candidates), O(window + block) memory.
enum KittyDeflate {
  static let window = 1 << 15
  static let minimumMatch = 3
  static let maximumMatch = 258
  /// Candidates tried per position: more finds longer matches, slower.
  static let maximumChain = 16
  /// A match this long is taken without looking further.
  static let goodEnough = 64
  /// Tokens per Huffman block: each block gets codes fitted to its own statistics.
  static let blockTokens = 1 << 15

  /// `data` as a zlib stream (header, deflate blocks, Adler-32).
  static func zlib(_ data: [UInt8]) -> [UInt8] {
    var bits = BitWriter()
    bits.bytes.reserveCapacity(data.count / 2 + 64)
    // CMF: deflate, 32 KiB window; FLG: default level, check bits making CMF·FLG % 31 == 0.
    bits.bytes.append(0x78)
    bits.bytes.append(0x9C)
    deflate(data, into: &bits)
    bits.flush()
    let adler = adler32(data)
    for shift in [24, 16, 8, 0] { bits.bytes.append(UInt8(truncatingIfNeeded: adler >> shift)) }
    return bits.bytes
  }

  /// The Adler-32 checksum zlib ends with. O(n).
  static func adler32(_ data: [UInt8]) -> UInt32 {
    var a: UInt32 = 1
    var b: UInt32 = 0
    var index = 0
    // 5552 bytes is the most that cannot overflow 32 bits before the modulo.
    while index < data.count {
      let end = min(data.count, index + 5552)
      while index < end {
        a &+= UInt32(data[index])
        b &+= a
        index += 1
      }
      a %= 65521
      b %= 65521
    }
    return b << 16 | a
  }

  // MARK: LZ77

  /// Literal/length and distance tokens of one block: a literal has `length` 0 and its byte
  /// in `value`; a match has its length and distance.
  private struct Tokens {
    var length: [UInt16] = []
    var value: [UInt16] = []
    var count: Int { length.count }

    mutating func removeAll() {
      length.removeAll(keepingCapacity: true)
      value.removeAll(keepingCapacity: true)
    }
  }

  private static func deflate(_ data: [UInt8], into bits: inout BitWriter) {
    var tokens = Tokens()
    tokens.length.reserveCapacity(blockTokens)
    tokens.value.reserveCapacity(blockTokens)
    var head = [Int32](repeating: -1, count: window)
    var previous = [Int32](repeating: -1, count: window)
    let count = data.count
    head.withUnsafeMutableBufferPointer { head in
      previous.withUnsafeMutableBufferPointer { previous in
        data.withUnsafeBufferPointer { input in
          func hash(_ at: Int) -> Int {
            (Int(input[at]) << 10 ^ Int(input[at + 1]) << 5 ^ Int(input[at + 2])) & (window - 1)
          }
          func insert(_ at: Int) {
            guard at + minimumMatch <= count else { return }
            let key = hash(at)
            previous[at & (window - 1)] = head[key]
            head[key] = Int32(at)
          }
          var position = 0
          while position < count {
            var bestLength = 0
            var bestDistance = 0
            if position + minimumMatch <= count {
              var candidate = Int(head[hash(position)])
              var chain = maximumChain
              let limit = min(maximumMatch, count - position)
              while candidate >= 0, chain > 0, position - candidate <= window {
                if input[candidate + bestLength] == input[position + bestLength] {
                  var length = 0
                  while length < limit, input[candidate + length] == input[position + length] {
                    length += 1
                  }
                  if length > bestLength {
                    bestLength = length
                    bestDistance = position - candidate
                    if length >= goodEnough || length == limit { break }
                  }
                }
                let next = Int(previous[candidate & (window - 1)])
                // The ring may hold a newer position for this slot: stop at anything not older.
                if next >= candidate { break }
                candidate = next
                chain -= 1
              }
            }
            if bestLength >= minimumMatch {
              tokens.length.append(UInt16(bestLength))
              tokens.value.append(UInt16(bestDistance))
              for at in position..<(position + bestLength) { insert(at) }
              position += bestLength
            } else {
              tokens.length.append(0)
              tokens.value.append(UInt16(input[position]))
              insert(position)
              position += 1
            }
            if tokens.count >= blockTokens {
              writeBlock(tokens, final: position >= count, into: &bits)
              tokens.removeAll()
            }
          }
        }
      }
    }
    if tokens.count > 0 || count == 0 {
      writeBlock(tokens, final: true, into: &bits)
    }
  }

  // MARK: Huffman blocks

  private static func writeBlock(_ tokens: Tokens, final: Bool, into bits: inout BitWriter) {
    let tables = DeflateTables.shared
    var literalFrequencies = [Int](repeating: 0, count: 286)
    var distanceFrequencies = [Int](repeating: 0, count: 30)
    for index in 0..<tokens.count {
      let length = Int(tokens.length[index])
      if length == 0 {
        literalFrequencies[Int(tokens.value[index])] += 1
      } else {
        literalFrequencies[Int(tables.lengthCode[length])] += 1
        distanceFrequencies[tables.distanceCode(Int(tokens.value[index]))] += 1
      }
    }
    literalFrequencies[256] = 1
    let literalLengths = HuffmanCode.lengths(literalFrequencies, limit: 15, minimumCodes: 2)
    let distanceLengths = HuffmanCode.lengths(distanceFrequencies, limit: 15, minimumCodes: 2)
    var literalCount = 286
    while literalCount > 257, literalLengths[literalCount - 1] == 0 { literalCount -= 1 }
    var distanceCount = 30
    while distanceCount > 1, distanceLengths[distanceCount - 1] == 0 { distanceCount -= 1 }

    // The two code-length tables as one run-length-coded sequence (symbols 0…18).
    let sequence = Array(literalLengths[0..<literalCount]) + distanceLengths[0..<distanceCount]
    var runSymbols: [(symbol: Int, extra: Int)] = []
    var index = 0
    while index < sequence.count {
      let value = sequence[index]
      var run = 1
      while index + run < sequence.count, sequence[index + run] == value { run += 1 }
      var left = run
      if value == 0 {
        while left >= 11 {
          let take = min(left, 138)
          runSymbols.append((18, take - 11))
          left -= take
        }
        if left >= 3 {
          runSymbols.append((17, left - 3))
          left = 0
        }
      } else {
        runSymbols.append((Int(value), 0))
        left -= 1
        while left >= 3 {
          let take = min(left, 6)
          runSymbols.append((16, take - 3))
          left -= take
        }
      }
      for _ in 0..<left { runSymbols.append((Int(value), 0)) }
      index += run
    }
    var codeLengthFrequencies = [Int](repeating: 0, count: 19)
    for entry in runSymbols { codeLengthFrequencies[entry.symbol] += 1 }
    let codeLengthLengths = HuffmanCode.lengths(
      codeLengthFrequencies, limit: 7, minimumCodes: 2)
    let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
    var codeLengthCount = 19
    while codeLengthCount > 4, codeLengthLengths[order[codeLengthCount - 1]] == 0 {
      codeLengthCount -= 1
    }

    bits.write(final ? 1 : 0, count: 1)
    bits.write(2, count: 2)
    bits.write(UInt32(literalCount - 257), count: 5)
    bits.write(UInt32(distanceCount - 1), count: 5)
    bits.write(UInt32(codeLengthCount - 4), count: 4)
    for position in 0..<codeLengthCount {
      bits.write(UInt32(codeLengthLengths[order[position]]), count: 3)
    }
    let codeLengthCodes = HuffmanCode.codes(codeLengthLengths)
    for entry in runSymbols {
      bits.write(codeLengthCodes[entry.symbol], count: Int(codeLengthLengths[entry.symbol]))
      switch entry.symbol {
      case 16: bits.write(UInt32(entry.extra), count: 2)
      case 17: bits.write(UInt32(entry.extra), count: 3)
      case 18: bits.write(UInt32(entry.extra), count: 7)
      default: break
      }
    }

    let literalCodes = HuffmanCode.codes(literalLengths)
    let distanceCodes = HuffmanCode.codes(distanceLengths)
    for index in 0..<tokens.count {
      let length = Int(tokens.length[index])
      if length == 0 {
        let symbol = Int(tokens.value[index])
        bits.write(literalCodes[symbol], count: Int(literalLengths[symbol]))
        continue
      }
      let symbol = Int(tables.lengthCode[length])
      bits.write(literalCodes[symbol], count: Int(literalLengths[symbol]))
      let lengthExtra = DeflateTables.lengthExtraBits[symbol - 257]
      if lengthExtra > 0 {
        bits.write(UInt32(length - DeflateTables.lengthBase[symbol - 257]), count: lengthExtra)
      }
      let distance = Int(tokens.value[index])
      let distanceSymbol = tables.distanceCode(distance)
      bits.write(distanceCodes[distanceSymbol], count: Int(distanceLengths[distanceSymbol]))
      let distanceExtra = DeflateTables.distanceExtraBits[distanceSymbol]
      if distanceExtra > 0 {
        bits.write(
          UInt32(distance - DeflateTables.distanceBase[distanceSymbol]), count: distanceExtra)
      }
    }
    bits.write(literalCodes[256], count: Int(literalLengths[256]))
  }
}

/// DEFLATE's fixed tables: the base and extra bits of each length and distance code, and
/// lookups from a length or distance to its code.
struct DeflateTables: Sendable {
  static let lengthBase = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
    131, 163, 195, 227, 258,
  ]
  static let lengthExtraBits = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ]
  static let distanceBase = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
  ]
  static let distanceExtraBits = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
  ]
  static let shared = DeflateTables()

  /// The literal/length symbol (257…285) of each match length 3…258.
  let lengthCode: [UInt16]
  /// The distance code of distances 1…256 (index d − 1) and of 257…32,768 by (d − 1) >> 7.
  private let nearDistanceCode: [UInt8]
  private let farDistanceCode: [UInt8]

  private init() {
    var lengths = [UInt16](repeating: 0, count: 259)
    for code in 0..<29 {
      let upper = code == 28 ? 258 : Self.lengthBase[code + 1] - 1
      let lower = code == 28 ? 258 : Self.lengthBase[code]
      for length in lower...upper { lengths[length] = UInt16(257 + code) }
    }
    // 258 is code 285 alone (code 284 stops at 257).
    lengths[258] = 285
    lengthCode = lengths
    func code(of distance: Int) -> UInt8 {
      var code = 29
      while Self.distanceBase[code] > distance { code -= 1 }
      return UInt8(code)
    }
    nearDistanceCode = (1...256).map(code(of:))
    farDistanceCode = (0..<256).map { code(of: $0 << 7 + 1) }
  }

  /// The distance code (0…29) of a distance 1…32,768.
  func distanceCode(_ distance: Int) -> Int {
    distance <= 256
      ? Int(nearDistanceCode[distance - 1]) : Int(farDistanceCode[(distance - 1) >> 7])
  }
}

/// Length-limited canonical Huffman codes, as DEFLATE stores them.
enum HuffmanCode {
  /// Code lengths for `frequencies` (0 for unused symbols), none longer than `limit`; at
  /// least `minimumCodes` symbols get a code (a decoder wants a complete code). Lengths past
  /// the limit are avoided by halving the frequencies until the tree is shallow enough, which
  /// ends: equal frequencies give a balanced tree. O(n log n) per try.
  static func lengths(_ frequencies: [Int], limit: Int, minimumCodes: Int) -> [UInt8] {
    var weights = frequencies
    var used = weights.indices.filter { weights[$0] > 0 }
    var index = 0
    while used.count < min(minimumCodes, weights.count) {
      if weights[index] == 0 {
        weights[index] = 1
        used.append(index)
      }
      index += 1
    }
    while true {
      let lengths = unlimitedLengths(weights, used: used)
      if lengths.max() ?? 0 <= UInt8(limit) { return lengths }
      weights = weights.map { $0 == 0 ? 0 : max(1, $0 >> 1) }
    }
  }

  /// Huffman's algorithm with two queues (sorted leaves, then merged nodes in order).
  private static func unlimitedLengths(_ weights: [Int], used: [Int]) -> [UInt8] {
    var lengths = [UInt8](repeating: 0, count: weights.count)
    let leaves = used.sorted { (weights[$0], $0) < (weights[$1], $1) }
    if leaves.count == 1 {
      lengths[leaves[0]] = 1
      return lengths
    }
    // Nodes 0..<n are leaves (in sorted order), then internal nodes as they are made.
    var nodeWeight = leaves.map { weights[$0] }
    var parent = [Int](repeating: -1, count: leaves.count * 2)
    var leafIndex = 0
    var mergedIndex = leaves.count
    func takeSmallest() -> Int {
      if leafIndex < leaves.count,
        mergedIndex >= nodeWeight.count || nodeWeight[leafIndex] <= nodeWeight[mergedIndex]
      {
        leafIndex += 1
        return leafIndex - 1
      }
      mergedIndex += 1
      return mergedIndex - 1
    }
    while nodeWeight.count < leaves.count * 2 - 1 {
      let first = takeSmallest()
      let second = takeSmallest()
      let node = nodeWeight.count
      nodeWeight.append(nodeWeight[first] + nodeWeight[second])
      parent[first] = node
      parent[second] = node
    }
    // Depths from the root (the last node) down: parents come after their children.
    var depth = [Int](repeating: 0, count: nodeWeight.count)
    for node in stride(from: nodeWeight.count - 2, through: 0, by: -1) {
      depth[node] = depth[parent[node]] + 1
    }
    for (position, symbol) in leaves.enumerated() {
      lengths[symbol] = UInt8(clamping: depth[position])
    }
    return lengths
  }

  /// Canonical codes for `lengths`, bit-reversed for an LSB-first writer.
  static func codes(_ lengths: [UInt8]) -> [UInt32] {
    var countPerLength = [UInt32](repeating: 0, count: 16)
    for length in lengths where length > 0 { countPerLength[Int(length)] += 1 }
    var next = [UInt32](repeating: 0, count: 16)
    var code: UInt32 = 0
    for length in 1..<16 {
      code = (code + countPerLength[length - 1]) << 1
      next[length] = code
    }
    var codes = [UInt32](repeating: 0, count: lengths.count)
    for (symbol, length) in lengths.enumerated() where length > 0 {
      let value = next[Int(length)]
      next[Int(length)] += 1
      var reversed: UInt32 = 0
      for bit in 0..<Int(length) {
        reversed |= (value >> UInt32(bit) & 1) << UInt32(Int(length) - 1 - bit)
      }
      codes[symbol] = reversed
    }
    return codes
  }
}

/// Bits into bytes, least significant first (DEFLATE's order).
struct BitWriter {
  var bytes: [UInt8] = []
  private var buffer: UInt64 = 0
  private var used = 0

  mutating func write(_ value: UInt32, count: Int) {
    buffer |= UInt64(value) << UInt64(used)
    used += count
    while used >= 8 {
      bytes.append(UInt8(truncatingIfNeeded: buffer))
      buffer >>= 8
      used -= 8
    }
  }

  /// Pads the last byte with zero bits.
  mutating func flush() {
    if used > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer)) }
    buffer = 0
    used = 0
  }
}
