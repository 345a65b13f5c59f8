import TesseraUtilities

/// Fits and resizes a ``Bitmap`` for a tile: the shapes of the terminal (units of a cell's
/// width by half its height for half blocks, pixels for sixel) over the shared area
/// resampler (``AreaResampling``, which the pipeline's thumbnails use too).
///
/// - Complexity: O(source pixels under the crop + crop pixels × taps), as ``AreaResampling``.
enum AreaResampler {
  /// Where `source` goes when fitted whole and centred in an output of `width` × `height`
  /// units, each `unit` pixels on the screen (1×1 for sixel; a half-block is a cell's width
  /// by half its height): the output itself when the aspects agree to within half a unit,
  /// else a rectangle narrower or shorter by what would have been stretched. O(1).
  static func fittedRect(
    of source: PixelSize, width: Int, height: Int, unit: PixelSize
  ) -> Rect {
    let width = max(1, width)
    let height = max(1, height)
    let whole = Rect(x: 0, y: 0, width: width, height: height)
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
    return Rect(
      x: (width - fittedWidth) / 2, y: (height - fittedHeight) / 2, width: fittedWidth,
      height: fittedHeight)
  }

  /// The `crop` of `bitmap` fitted whole into `width` × `height` units of `unit` screen
  /// pixels (``fittedRect(of:width:height:unit:)``): scaled alike on both axes, never
  /// stretched, with transparent margins where the shapes differ. The cost of
  /// ``resample(_:width:height:crop:)`` for the part of the crop the image covers.
  static func fit(
    _ bitmap: Bitmap, width: Int, height: Int, crop: Rect, unit: PixelSize
  ) -> [UInt8] {
    let fitted = fittedRect(
      of: PixelSize(width: bitmap.width, height: bitmap.height), width: width, height: height,
      unit: unit)
    let width = max(1, width)
    let height = max(1, height)
    guard fitted != Rect(x: 0, y: 0, width: width, height: height) else {
      return resample(bitmap, width: width, height: height, crop: crop)
    }
    guard
      let (left, top, outWidth, outHeight) = AreaResampling.clip(crop, width: width, height: height)
    else {
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
      crop: Rect(
        x: innerLeft - fitted.x, y: innerTop - fitted.y, width: innerWidth, height: innerHeight))
    for row in 0..<innerHeight {
      let from = row * innerWidth * 4
      let to = ((innerTop - top + row) * outWidth + innerLeft - left) * 4
      result.replaceSubrange(
        to..<(to + innerWidth * 4), with: inner[from..<(from + innerWidth * 4)])
    }
    return result
  }

  /// `bitmap` resized to `width` × `height` RGBA bytes.
  static func resample(_ bitmap: Bitmap, width: Int, height: Int) -> [UInt8] {
    let width = max(1, width)
    let height = max(1, height)
    return resample(
      bitmap, width: width, height: height,
      crop: Rect(x: 0, y: 0, width: width, height: height))
  }

  /// The `crop` of `bitmap` resized to `width` × `height`: `crop.width × crop.height` RGBA
  /// bytes, the same as cropping the whole resample, at the cost of the crop alone. `crop`
  /// is clipped to the output (an empty result when nothing is left).
  static func resample(_ bitmap: Bitmap, width: Int, height: Int, crop: Rect) -> [UInt8] {
    AreaResampling.resample(
      bitmap.pixels, sourceWidth: bitmap.width, sourceHeight: bitmap.height, width: width,
      height: height, crop: crop)
  }
}
