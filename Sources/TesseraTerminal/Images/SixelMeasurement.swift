/// What a benchmark needs to measure sixel fidelity from outside the module: a tile's
/// reference pixels (the source resampled as the renderer resamples it) and our encoding of
/// them.
package enum SixelMeasurement {
  /// `bitmap` area-resampled to `width × height` RGBA pixels, as a tile of that size shows
  /// it before quantizing. O(source pixels + output pixels × taps).
  package static func referencePixels(_ bitmap: Bitmap, width: Int, height: Int) -> [UInt8] {
    AreaResampler.resample(bitmap, width: width, height: height)
  }

  /// The part of `bitmap` a `width × height` tile shows (its centre at the tile's aspect: a
  /// tile crops, never stretches), at the bitmap's own resolution.
  package static func tileView(_ bitmap: Bitmap, width: Int, height: Int) throws -> Bitmap {
    let crop = KittyGeometry.fillCrop(
      of: PixelSize(width: bitmap.width, height: bitmap.height),
      toAspectOf: PixelSize(width: width, height: height))
    return try Bitmap(
      width: crop.width, height: crop.height,
      pixels: AreaResampler.resample(
        bitmap, width: bitmap.width, height: bitmap.height,
        crop: Rect(
          x: crop.x, y: crop.y, width: crop.width, height: crop.height)))
  }

  /// Our sixel sequence for the `width × height` RGBA `pixels` (see ``SixelEncoder``).
  package static func encode(_ pixels: [UInt8], width: Int, height: Int) -> [UInt8] {
    SixelEncoder.encode(pixels, width: width, height: height)
  }
}
