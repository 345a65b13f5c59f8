import CVipsShim

extension Image {
  /// The pixels `rect` covers, cut to the image; fails when nothing is left.
  /// - Complexity: O(pixels kept).
  func cropped(to rect: Rect) throws(ImagePipelineError) -> Image {
    let kept = rect.intersection(Rect(x: 0, y: 0, width: width, height: height))
    guard !kept.isEmpty else {
      throw .processingFailed("the crop \(rect) lies outside the \(width)x\(height) image")
    }
    if kept.width == width, kept.height == height { return self }
    var out = [UInt8]()
    out.reserveCapacity(kept.width * kept.height * 4)
    for row in kept.y..<kept.maxY {
      let start = (row * width + kept.x) * 4
      out.append(contentsOf: pixels[start..<start + kept.width * 4])
    }
    return try Image(
      width: kept.width, height: kept.height, pixels: out, originalSize: originalSize)
  }

  /// Transparent outside a rounded rectangle of `radius` (at most half the shorter side):
  /// each corner pixel keeps the share of it the curve covers.
  /// - Complexity: O(pixels).
  func masked(cornerRadius radius: Double) throws(ImagePipelineError) -> Image {
    let radius = min(radius, Double(min(width, height)) / 2)
    guard radius > 0 else { return self }
    var out = pixels
    let right = Double(width) - radius
    let bottom = Double(height) - radius
    for y in 0..<height {
      let centreY = Double(y) + 0.5
      let dy = centreY < radius ? radius - centreY : centreY > bottom ? centreY - bottom : 0
      guard dy > 0 else { continue }
      for x in 0..<width {
        let centreX = Double(x) + 0.5
        let dx = centreX < radius ? radius - centreX : centreX > right ? centreX - right : 0
        guard dx > 0 else { continue }
        let coverage = min(max(radius - (dx * dx + dy * dy).squareRoot() + 0.5, 0), 1)
        let alpha = (y * width + x) * 4 + 3
        out[alpha] = UInt8((Double(out[alpha]) * coverage).rounded())
      }
    }
    return try Image(width: width, height: height, pixels: out, originalSize: originalSize)
  }

  /// Blurred by a Gaussian of `sigma` pixels through libvips.
  /// - Complexity: O(pixels × sigma).
  func blurred(sigma: Double) throws(ImagePipelineError) -> Image {
    var out: UnsafeMutablePointer<UInt8>?
    var length = 0
    let status = pixels.withUnsafeBufferPointer { buffer in
      tessera_vips_gaussblur_rgba(
        buffer.baseAddress, buffer.count, Int32(width), Int32(height), sigma, &out, &length)
    }
    guard status == 0, let out else {
      throw .processingFailed("blur: \(ImageDecoder.lastError())")
    }
    defer { tessera_vips_free(out) }
    return try Image(
      width: width, height: height,
      pixels: [UInt8](UnsafeBufferPointer(start: out, count: length)), originalSize: originalSize)
  }
}
