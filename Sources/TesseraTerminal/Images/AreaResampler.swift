import TesseraUtilities

/// Fits and resizes a ``Bitmap`` for a tile: the shapes of the terminal (units of a cell's
/// width by half its height for half blocks, pixels for sixel) over the shared area
/// resampler (``AreaResampling``, which the pipeline's thumbnails use too).
///
/// - Complexity: O(source pixels under the crop + crop pixels × taps), as ``AreaResampling``.
enum AreaResampler {
  /// The part of `source` that fills an output of `width` × `height` units, each `unit`
  /// pixels on the screen (1×1 for sixel and iTerm2; a half-block is a cell's width by half its
  /// height): the centre of `source` cut to the output's shape on the screen, so it is scaled
  /// alike on both axes — the same crop kitty's uploads make (``KittyGeometry``). O(1).
  static func filledSource(
    of source: PixelSize, width: Int, height: Int, unit: PixelSize
  ) -> Rect {
    let crop = KittyGeometry.fillCrop(
      of: source,
      toAspectOf: PixelSize(
        width: max(1, width) * max(1, unit.width), height: max(1, height) * max(1, unit.height)))
    return Rect(x: crop.x, y: crop.y, width: crop.width, height: crop.height)
  }

  /// The `crop` (in output units) of `bitmap` filling `width` × `height` units of `unit`
  /// screen pixels (``filledSource(of:width:height:unit:)``): scaled alike on both axes, never
  /// stretched, what does not fit cut from its sides or its top and bottom. Every protocol
  /// fills a tile the same way. O(source crop) to cut plus ``resample(_:width:height:crop:)``.
  static func fill(
    _ bitmap: Bitmap, width: Int, height: Int, crop: Rect, unit: PixelSize
  ) -> [UInt8] {
    let source = filledSource(
      of: PixelSize(width: bitmap.width, height: bitmap.height), width: width, height: height,
      unit: unit)
    let part = KittyGeometry.cropped(
      bitmap,
      to: KittyGeometry.Rect(x: source.x, y: source.y, width: source.width, height: source.height))
    return resample(part, width: max(1, width), height: max(1, height), crop: crop)
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
