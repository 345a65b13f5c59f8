import TesseraGeometry

/// Resizes an 8-bit RGBA bitmap (row-major, 4 bytes a pixel, no padding) by area averaging:
/// each output pixel is the mean of the source area it covers, weighted by overlap.
/// Deterministic (a fixed order of float operations), so tests can predict a tile's colours.
/// The terminal draws every image through it, and the pipeline makes a thumbnail's tile with
/// it: one resampler, so the tile a thumbnail gives and the tile a terminal draws agree.
///
/// Only a crop of the output is ever computed: the taps, the source rows read and the
/// buffers cover the crop alone, so a tile 1 pixel wide and a million pixels tall costs what
/// its visible part costs.
///
/// - Complexity: Separable: O(source pixels under the crop + crop pixels × taps).
package enum AreaResampling {
  /// For each output coordinate in a range, the source coordinates it covers and their
  /// weights (sum 1).
  struct Taps {
    var first: [Int] = []
    var weights: [[Float]] = []

    init(source: Int, destination: Int, range: Range<Int>) {
      let scale = Double(source) / Double(destination)
      first.reserveCapacity(range.count)
      weights.reserveCapacity(range.count)
      for index in range {
        let start = Double(index) * scale
        let end = min(Double(source), Double(index + 1) * scale)
        // Both lie in 0…source by construction; clamped all the same.
        let firstSource = Int(clamping: start.rounded(.down), to: 0...(source - 1))
        let lastSource = max(firstSource, Int(clamping: end.rounded(.up), to: 1...source) - 1)
        var row: [Float] = []
        row.reserveCapacity(lastSource - firstSource + 1)
        for sourceIndex in firstSource...lastSource {
          let overlap = min(end, Double(sourceIndex + 1)) - max(start, Double(sourceIndex))
          row.append(Float(max(0, overlap) / (end - start)))
        }
        first.append(firstSource)
        weights.append(row)
      }
    }

    /// The source coordinates any tap reads.
    var sourceSpan: ClosedRange<Int> {
      let low = first.first ?? 0
      var high = low
      for (start, row) in zip(first, weights) { high = max(high, start + row.count - 1) }
      return low...high
    }
  }

  /// `crop` clipped to a `width` × `height` output, as (left, top, width, height); nil when
  /// nothing of it is left. O(1).
  package static func clip(
    _ crop: Rect, width: Int, height: Int
  ) -> (left: Int, top: Int, width: Int, height: Int)? {
    let left = crop.x.clamped(to: 0...width)
    let top = crop.y.clamped(to: 0...height)
    let outWidth = (crop.x + crop.width).clamped(to: left...width) - left
    let outHeight = (crop.y + crop.height).clamped(to: top...height) - top
    guard outWidth > 0, outHeight > 0 else { return nil }
    return (left, top, outWidth, outHeight)
  }

  /// The `crop` of the `sourceWidth` × `sourceHeight` RGBA `pixels` resized to `width` ×
  /// `height`: `crop.width × crop.height` RGBA bytes, the same as cropping the whole
  /// resample, at the cost of the crop alone. `crop` is clipped to the output (an empty
  /// result when nothing is left); a source whose byte count does not match its sides gives
  /// an empty result too.
  package static func resample(
    _ pixels: [UInt8], sourceWidth: Int, sourceHeight: Int, width: Int, height: Int,
    crop: Rect
  ) -> [UInt8] {
    let width = max(1, width)
    let height = max(1, height)
    let area = sourceWidth.multipliedReportingOverflow(by: sourceHeight)
    let bytes = area.partialValue.multipliedReportingOverflow(by: 4)
    guard sourceWidth > 0, sourceHeight > 0, !area.overflow, !bytes.overflow,
      bytes.partialValue == pixels.count,
      let (left, top, outWidth, outHeight) = clip(crop, width: width, height: height)
    else { return [] }
    if sourceWidth == width, sourceHeight == height, outWidth == width, outHeight == height {
      return pixels
    }
    let horizontal = Taps(source: sourceWidth, destination: width, range: left..<(left + outWidth))
    let vertical = Taps(source: sourceHeight, destination: height, range: top..<(top + outHeight))
    let rows = vertical.sourceSpan
    let middle = horizontalPass(pixels, sourceWidth: sourceWidth, taps: horizontal, rows: rows)
    var result = [UInt8](repeating: 0, count: outWidth * outHeight * 4)
    let rowLength = outWidth * 4
    middle.withUnsafeBufferPointer { middle in
      result.withUnsafeMutableBufferPointer { result in
        for row in 0..<outHeight {
          let first = vertical.first[row] - rows.lowerBound
          let weights = vertical.weights[row]
          for column in 0..<rowLength {
            var sum: Float = 0
            for (offset, weight) in weights.enumerated() {
              sum += middle[(first + offset) * rowLength + column] * weight
            }
            result[row * rowLength + column] = UInt8(max(0, min(255, (sum + 0.5).rounded(.down))))
          }
        }
      }
    }
    return result
  }

  /// Source rows `rows`, resampled to the output columns `taps` covers, as floats.
  private static func horizontalPass(
    _ pixels: [UInt8], sourceWidth: Int, taps: Taps, rows: ClosedRange<Int>
  ) -> [Float] {
    let columns = taps.first.count
    var middle = [Float](repeating: 0, count: columns * rows.count * 4)
    pixels.withUnsafeBufferPointer { source in
      middle.withUnsafeMutableBufferPointer { middle in
        for (index, row) in rows.enumerated() {
          let sourceRow = row * sourceWidth * 4
          let middleRow = index * columns * 4
          for column in 0..<columns {
            let first = taps.first[column]
            var r: Float = 0
            var g: Float = 0
            var b: Float = 0
            var a: Float = 0
            for (offset, weight) in taps.weights[column].enumerated() {
              let pixel = sourceRow + (first + offset) * 4
              r += Float(source[pixel]) * weight
              g += Float(source[pixel + 1]) * weight
              b += Float(source[pixel + 2]) * weight
              a += Float(source[pixel + 3]) * weight
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
    return middle
  }
}
