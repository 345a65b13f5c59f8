/// What a benchmark needs to measure sixel fidelity from outside the module: a tile's
/// reference pixels (the source resampled as the renderer resamples it) and our encoding of
/// them.
package enum SixelMeasurement {
  /// `bitmap` area-resampled to `width × height` RGBA pixels, as a tile of that size shows
  /// it before quantizing. O(source pixels + output pixels × taps).
  package static func referencePixels(_ bitmap: Bitmap, width: Int, height: Int) -> [UInt8] {
    AreaResampler.resample(bitmap, width: width, height: height)
  }

  /// Our sixel sequence for the `width × height` RGBA `pixels` (see ``SixelEncoder``).
  package static func encode(_ pixels: [UInt8], width: Int, height: Int) -> [UInt8] {
    SixelEncoder.encode(pixels, width: width, height: height)
  }
}
