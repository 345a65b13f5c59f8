import TesseraUtilities

/// Resizes an RGBA bitmap by area averaging: each output pixel is the mean of the source
/// area it covers, weighted by overlap. Deterministic (a fixed order of float operations), so
/// tests can predict a tile's colours.
///
/// Only a crop of the output is ever computed: the taps, the source rows read and the
/// buffers cover the crop alone, so a tile 1 pixel wide and a million pixels tall costs what
/// its visible part costs. Separable: O(source pixels under the crop + crop pixels × taps).
enum AreaResampler {
  /// A rectangle of output pixels.
  struct PixelRect: Hashable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
  }

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

  /// Where `source` goes when fitted whole and centred in an output of `width` × `height`
  /// units, each `unit` pixels on the screen (1×1 for sixel; a half-block is a cell's width
  /// by half its height): the output itself when the aspects agree to within half a unit,
  /// else a rectangle narrower or shorter by what would have been stretched. O(1).
  static func fittedRect(
    of source: PixelSize, width: Int, height: Int, unit: PixelSize
  ) -> PixelRect {
    let width = max(1, width)
    let height = max(1, height)
    let whole = PixelRect(x: 0, y: 0, width: width, height: height)
    guard source.width > 0, source.height > 0, unit.width > 0, unit.height > 0 else {
      return whole
    }
    let boxWidth = Double(width) * Double(unit.width)
    let boxHeight = Double(height) * Double(unit.height)
    let scale = min(boxWidth / Double(source.width), boxHeight / Double(source.height))
    let fittedWidth = Int(
      clamping: (Double(source.width) * scale / Double(unit.width)).rounded(), to: 1...width)
    let fittedHeight = Int(
      clamping: (Double(source.height) * scale / Double(unit.height)).rounded(), to: 1...height)
    return PixelRect(
      x: (width - fittedWidth) / 2, y: (height - fittedHeight) / 2, width: fittedWidth,
      height: fittedHeight)
  }

  /// The `crop` of `bitmap` fitted whole into `width` × `height` units of `unit` screen
  /// pixels (``fittedRect(of:width:height:unit:)``): scaled alike on both axes, never
  /// stretched, with transparent margins where the shapes differ. The cost of
  /// ``resample(_:width:height:crop:)`` for the part of the crop the image covers.
  static func fit(
    _ bitmap: Bitmap, width: Int, height: Int, crop: PixelRect, unit: PixelSize
  ) -> [UInt8] {
    let fitted = fittedRect(
      of: PixelSize(width: bitmap.width, height: bitmap.height), width: width, height: height,
      unit: unit)
    let width = max(1, width)
    let height = max(1, height)
    guard fitted != PixelRect(x: 0, y: 0, width: width, height: height) else {
      return resample(bitmap, width: width, height: height, crop: crop)
    }
    guard let (left, top, outWidth, outHeight) = clip(crop, width: width, height: height) else {
      return []
    }
    var result = [UInt8](repeating: 0, count: outWidth * outHeight * 4)
    let innerLeft = max(left, fitted.x)
    let innerTop = max(top, fitted.y)
    let innerWidth = min(left + outWidth, fitted.x + fitted.width) - innerLeft
    let innerHeight = min(top + outHeight, fitted.y + fitted.height) - innerTop
    guard innerWidth > 0, innerHeight > 0 else { return result }
    let inner = resample(
      bitmap, width: fitted.width, height: fitted.height,
      crop: PixelRect(
        x: innerLeft - fitted.x, y: innerTop - fitted.y, width: innerWidth, height: innerHeight))
    for row in 0..<innerHeight {
      let from = row * innerWidth * 4
      let to = ((innerTop - top + row) * outWidth + innerLeft - left) * 4
      result.replaceSubrange(
        to..<(to + innerWidth * 4), with: inner[from..<(from + innerWidth * 4)])
    }
    return result
  }

  /// `crop` clipped to a `width` × `height` output, as (left, top, width, height); nil when
  /// nothing of it is left. O(1).
  private static func clip(
    _ crop: PixelRect, width: Int, height: Int
  ) -> (Int, Int, Int, Int)? {
    let left = crop.x.clamped(to: 0...width)
    let top = crop.y.clamped(to: 0...height)
    let outWidth = (crop.x + crop.width).clamped(to: left...width) - left
    let outHeight = (crop.y + crop.height).clamped(to: top...height) - top
    guard outWidth > 0, outHeight > 0 else { return nil }
    return (left, top, outWidth, outHeight)
  }

  /// `bitmap` resized to `width` × `height` RGBA bytes.
  static func resample(_ bitmap: Bitmap, width: Int, height: Int) -> [UInt8] {
    let width = max(1, width)
    let height = max(1, height)
    return resample(
      bitmap, width: width, height: height,
      crop: PixelRect(x: 0, y: 0, width: width, height: height))
  }

  /// The `crop` of `bitmap` resized to `width` × `height`: `crop.width × crop.height` RGBA
  /// bytes, the same as cropping the whole resample, at the cost of the crop alone. `crop`
  /// is clipped to the output (an empty result when nothing is left).
  static func resample(_ bitmap: Bitmap, width: Int, height: Int, crop: PixelRect) -> [UInt8] {
    let width = max(1, width)
    let height = max(1, height)
    guard let (left, top, outWidth, outHeight) = clip(crop, width: width, height: height) else {
      return []
    }
    if bitmap.width == width, bitmap.height == height, outWidth == width, outHeight == height {
      return bitmap.pixels
    }
    let horizontal = Taps(source: bitmap.width, destination: width, range: left..<(left + outWidth))
    let vertical = Taps(source: bitmap.height, destination: height, range: top..<(top + outHeight))
    let rows = vertical.sourceSpan
    let middle = horizontalPass(bitmap, taps: horizontal, rows: rows)
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
    _ bitmap: Bitmap, taps: Taps, rows: ClosedRange<Int>
  )
    -> [Float]
  {
    let columns = taps.first.count
    var middle = [Float](repeating: 0, count: columns * rows.count * 4)
    bitmap.pixels.withUnsafeBufferPointer { source in
      middle.withUnsafeMutableBufferPointer { middle in
        for (index, row) in rows.enumerated() {
          let sourceRow = row * bitmap.width * 4
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
