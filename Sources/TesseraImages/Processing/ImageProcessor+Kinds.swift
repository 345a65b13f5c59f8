// The built-in steps; the type itself (ImageProcessor.swift) needs none of them, so the
// parsers' fuzz module compiles requests without libvips.

extension ImageProcessor {
  /// Resized into `size` as `contentMode` says (never enlarged but by `.exact`), by area
  /// averaging. O(pixels read + pixels written × taps).
  public static func resize(
    _ size: PixelSize, _ contentMode: ImageRequest.ContentMode = .aspectFill
  ) -> ImageProcessor {
    ImageProcessor(identifier: "resize:\(size.width)x\(size.height),\(contentMode)") {
      image throws(ImagePipelineError) in
      try ImageDecoder.requirePositive(size)
      return try image.fitted(into: size, contentMode: contentMode)
    }
  }

  /// The part of the image `rect` covers, in its pixels; a rectangle partly outside is cut
  /// to the image, one wholly outside fails. O(pixels kept).
  public static func crop(_ rect: Rect) -> ImageProcessor {
    ImageProcessor(
      identifier: "crop:\(rect.x),\(rect.y),\(rect.width)x\(rect.height)"
    ) { image throws(ImagePipelineError) in try image.cropped(to: rect) }
  }

  /// Corners cut round with `radius` pixels (at most half the shorter side), their edge
  /// anti-aliased into the alpha. O(pixels).
  public static func roundedCorners(radius: Int) -> ImageProcessor {
    ImageProcessor(identifier: "rounded:\(radius)") { image throws(ImagePipelineError) in
      try image.masked(cornerRadius: Double(max(0, radius)))
    }
  }

  /// The centre square cut as a circle: transparent outside, anti-aliased at the edge.
  /// O(pixels).
  public static let circle = ImageProcessor(identifier: "circle") {
    image throws(ImagePipelineError) in
    let side = min(image.width, image.height)
    let square = try image.cropped(
      to: Rect(x: (image.width - side) / 2, y: (image.height - side) / 2, width: side, height: side)
    )
    return try square.masked(cornerRadius: Double(side) / 2)
  }

  /// Blurred by a Gaussian of `sigma` pixels (clamped to 0.1…100), through libvips.
  /// O(pixels × sigma).
  public static func gaussianBlur(sigma: Double) -> ImageProcessor {
    let sigma = sigma.isFinite ? min(max(sigma, 0.1), 100) : 0.1
    return ImageProcessor(identifier: "blur:\(sigma)") { image throws(ImagePipelineError) in
      try image.blurred(sigma: sigma)
    }
  }
}
