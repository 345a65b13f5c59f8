/// Resizes an RGBA bitmap by area averaging: each output pixel is the mean of the source
/// area it covers, weighted by overlap. Deterministic (a fixed order of float operations), so
/// tests can predict a tile's colours. Separable: O(srcW × srcH + dstW × srcH + dstW × dstH)
/// times the filter width.
enum AreaResampler {
  /// For each output coordinate, the source coordinates it covers and their weights (sum 1).
  struct Taps {
    var first: [Int32] = []
    var weights: [[Float]] = []

    init(source: Int, destination: Int) {
      let scale = Double(source) / Double(destination)
      for index in 0..<destination {
        let start = Double(index) * scale
        let end = min(Double(source), Double(index + 1) * scale)
        let firstSource = Int(start)
        var lastSource = Int(end.rounded(.up)) - 1
        lastSource = max(firstSource, min(source - 1, lastSource))
        var row: [Float] = []
        for sourceIndex in firstSource...lastSource {
          let overlap =
            min(end, Double(sourceIndex + 1)) - max(start, Double(sourceIndex))
          row.append(Float(max(0, overlap) / (end - start)))
        }
        first.append(Int32(firstSource))
        weights.append(row)
      }
    }
  }

  /// `bitmap` resized to `width` × `height` RGBA bytes.
  static func resample(_ bitmap: Bitmap, width: Int, height: Int) -> [UInt8] {
    let width = max(1, width)
    let height = max(1, height)
    if bitmap.width == width, bitmap.height == height { return bitmap.pixels }
    let horizontal = Taps(source: bitmap.width, destination: width)
    let vertical = Taps(source: bitmap.height, destination: height)
    // Horizontal pass: source rows, output columns, as floats.
    var middle = [Float](repeating: 0, count: width * bitmap.height * 4)
    bitmap.pixels.withUnsafeBufferPointer { source in
      middle.withUnsafeMutableBufferPointer { middle in
        for row in 0..<bitmap.height {
          let sourceRow = row * bitmap.width * 4
          let middleRow = row * width * 4
          for column in 0..<width {
            let first = Int(horizontal.first[column])
            var r: Float = 0
            var g: Float = 0
            var b: Float = 0
            var a: Float = 0
            for (offset, weight) in horizontal.weights[column].enumerated() {
              let index = sourceRow + (first + offset) * 4
              r += Float(source[index]) * weight
              g += Float(source[index + 1]) * weight
              b += Float(source[index + 2]) * weight
              a += Float(source[index + 3]) * weight
            }
            let out = middleRow + column * 4
            middle[out] = r
            middle[out + 1] = g
            middle[out + 2] = b
            middle[out + 3] = a
          }
        }
      }
    }
    var result = [UInt8](repeating: 0, count: width * height * 4)
    middle.withUnsafeBufferPointer { middle in
      result.withUnsafeMutableBufferPointer { result in
        for row in 0..<height {
          let first = Int(vertical.first[row])
          let weights = vertical.weights[row]
          for column in 0..<(width * 4) {
            var sum: Float = 0
            for (offset, weight) in weights.enumerated() {
              sum += middle[(first + offset) * width * 4 + column] * weight
            }
            result[row * width * 4 + column] = UInt8(max(0, min(255, (sum + 0.5).rounded(.down))))
          }
        }
      }
    }
    return result
  }
}
