extension Bitmap {
  /// The pixels of `width` × `height` at (`x`, `y`), the rectangle first clamped to the
  /// bitmap (at least one pixel): a zoomed detail view shows a window of a larger decode.
  ///
  /// - Complexity: O(pixels of the crop); the bitmap itself when the crop is all of it.
  public func cropped(x: Int, y: Int, width: Int, height: Int) -> Bitmap {
    let left = min(max(0, x), self.width - 1)
    let top = min(max(0, y), self.height - 1)
    let cropWidth = min(max(1, width), self.width - left)
    let cropHeight = min(max(1, height), self.height - top)
    guard cropWidth != self.width || cropHeight != self.height else { return self }
    var cropped: [UInt8] = []
    cropped.reserveCapacity(cropWidth * cropHeight * 4)
    for row in top..<(top + cropHeight) {
      let start = (row * self.width + left) * 4
      cropped.append(contentsOf: pixels[start..<(start + cropWidth * 4)])
    }
    // The clamped rectangle lies inside a valid bitmap, so it is one too.
    return (try? Bitmap(width: cropWidth, height: cropHeight, pixels: cropped)) ?? self
  }
}
