import TesseraUtilities

extension Image {
  /// This image resized into `box` as libvips' thumbnailer sizes it, by area averaging
  /// (``AreaResampling``, the resampler the terminal draws with): `.aspectFit` scales the
  /// whole image down until it fits; `.aspectFill` scales it down until it covers the box and
  /// crops the centre; `.exact` stretches it to the box. Neither fit nor fill scales up; a
  /// nil box leaves the image as it is.
  ///
  /// For images already small (a shared thumbnail, a camera's embedded one): libvips'
  /// thumbnailer spends milliseconds of set-up on a 128-px image whose resample costs
  /// microseconds here.
  ///
  /// - Complexity: O(pixels read + box pixels × taps).
  func fitted(
    into box: PixelSize?, contentMode: ImageRequest.ContentMode
  ) throws(ImagePipelineError) -> Image {
    guard let box, box.width > 0, box.height > 0 else { return self }
    let plan = Self.fittingPlan(of: size, into: box, contentMode: contentMode)
    if plan.scaled == size, plan.crop == .init(x: 0, y: 0, width: width, height: height) {
      return self
    }
    let pixels = AreaResampling.resample(
      pixels, sourceWidth: width, sourceHeight: height, width: plan.scaled.width,
      height: plan.scaled.height, crop: plan.crop)
    return try Image(
      width: plan.crop.width, height: plan.crop.height, pixels: pixels,
      originalSize: originalSize)
  }

  /// The size `source` is scaled to for `box`, and the part of it kept. O(1).
  static func fittingPlan(
    of source: PixelSize, into box: PixelSize, contentMode: ImageRequest.ContentMode
  ) -> (scaled: PixelSize, crop: Rect) {
    let width = max(1, source.width)
    let height = max(1, source.height)
    let horizontal = Double(width) / Double(box.width)
    let vertical = Double(height) / Double(box.height)
    let scaled: PixelSize
    switch contentMode {
    case .exact:
      scaled = box
    case .aspectFit, .aspectFill:
      let shrink = max(
        1, contentMode == .aspectFit ? max(horizontal, vertical) : min(horizontal, vertical))
      scaled = PixelSize(
        width: Int(clamping: (Double(width) / shrink).rounded(), to: 1...width),
        height: Int(clamping: (Double(height) / shrink).rounded(), to: 1...height))
    }
    guard contentMode == .aspectFill else {
      return (scaled, .init(x: 0, y: 0, width: scaled.width, height: scaled.height))
    }
    let kept = PixelSize(
      width: min(box.width, scaled.width), height: min(box.height, scaled.height))
    return (
      scaled,
      .init(
        x: (scaled.width - kept.width) / 2, y: (scaled.height - kept.height) / 2,
        width: kept.width, height: kept.height)
    )
  }
}
