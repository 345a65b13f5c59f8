/// A decoded bitmap: 8-bit RGBA, row-major, `width * 4` bytes per row, straight alpha.
///
/// `originalSize` is the source image's size before downsampling, so a layout can learn an
/// image's aspect ratio from any thumbnail of it. Copies share the pixel storage.
public struct Image: Sendable, Equatable, CustomStringConvertible {
  /// Columns of pixels.
  public let width: Int
  /// Rows of pixels.
  public let height: Int
  /// `width * height * 4` bytes: red, green, blue, alpha, row after row from the top.
  public let pixels: [UInt8]
  /// The source image's size before it was downsampled.
  public let originalSize: PixelSize

  /// An image over `pixels` (`width * height * 4` RGBA bytes), downsampled from a source of
  /// `originalSize`. Throws ``ImagePipelineError/decodingFailed(_:)`` when the sides are not
  /// positive or `pixels` holds any other number of bytes: every reader of an image (the
  /// orientation turn, the fitting crop, libpng and libvips' writers) trusts that count.
  public init(
    width: Int, height: Int, pixels: [UInt8], originalSize: PixelSize
  ) throws(ImagePipelineError) {
    let (area, overflow) = width.multipliedReportingOverflow(by: height)
    guard width > 0, height > 0, !overflow, area <= Int.max / 4, pixels.count == area * 4 else {
      throw .decodingFailed("\(pixels.count) bytes cannot be a \(width)x\(height) RGBA image")
    }
    self.width = width
    self.height = height
    self.pixels = pixels
    self.originalSize = originalSize
  }

  /// The bitmap's size (`width` x `height`).
  public var size: PixelSize { PixelSize(width: width, height: height) }

  /// Bytes held by the bitmap: what the memory cache charges for it.
  public var cost: Int { pixels.count }

  /// The source's aspect ratio (width / height), not the thumbnail's, which crops may change;
  /// 1 for a degenerate size, so layouts never divide by zero.
  public var aspectRatio: Double { originalSize.aspectRatio ?? 1 }

  /// "Image(WxH of ORIGINAL)".
  public var description: String { "Image(\(width)x\(height) of \(originalSize))" }
}
