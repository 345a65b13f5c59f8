extension Image {
  /// The image turned upright from one stored under EXIF `orientation` (1…8; anything else is
  /// upright already). Sizes swap for 5…8.
  ///
  /// - Complexity: O(pixels).
  func turnedUpright(from orientation: Int) throws(ImagePipelineError) -> Image {
    guard (2...8).contains(orientation) else { return self }
    let (w, h) = (width, height)
    let swaps = orientation >= 5
    let outWidth = swaps ? h : w
    let outHeight = swaps ? w : h
    var out = [UInt8](repeating: 0, count: pixels.count)
    pixels.withUnsafeBufferPointer { source in
      out.withUnsafeMutableBufferPointer { target in
        for y in 0..<outHeight {
          for x in 0..<outWidth {
            // The stored pixel that shows at (x, y) (TIFF/EXIF 6.0, tag 274).
            let (sx, sy) =
              switch orientation {
              case 2: (w - 1 - x, y)
              case 3: (w - 1 - x, h - 1 - y)
              case 4: (x, h - 1 - y)
              case 5: (y, x)
              case 6: (y, h - 1 - x)
              case 7: (w - 1 - y, h - 1 - x)
              default: (w - 1 - y, x)  // 8
              }
            let from = (sy * w + sx) * 4
            let to = (y * outWidth + x) * 4
            for channel in 0..<4 { target[to + channel] = source[from + channel] }
          }
        }
      }
    }
    return try Image(width: outWidth, height: outHeight, pixels: out, originalSize: originalSize)
  }
}
