import CPNG
import CVipsShim
import Foundation

extension ImageDecoder {
  /// A thumbnail from the shared folders (PNG, by the freedesktop.org standard) decoded
  /// whole by libpng rather than libvips: a second launch shows its tiles without waiting
  /// for libvips and its ~100 libraries to load. Its sides are held to the largest
  /// thumbnail's (1,024 px) before a pixel is allocated. The rare 16-bit thumbnail goes to
  /// libvips, whose reading of its samples (sRGB) libpng's simplified reader does not share.
  func decodeSharedThumbnail(_ png: Data) throws(ImagePipelineError) -> Image {
    var pixels: UnsafeMutablePointer<UInt8>?
    var length = 0
    var width: Int32 = 0
    var height: Int32 = 0
    var reason = [CChar](repeating: 0, count: 128)
    let side = Int32(ThumbnailSize.xxLarge.side)
    let limit = min(maxPixels, Self.smallImagePixels)
    let status = png.withUnsafeBytes { raw in
      tessera_png_decode_rgba(
        raw.baseAddress, raw.count, side, limit, &pixels, &length, &width, &height, &reason,
        reason.count)
    }
    if status == TESSERA_PNG_SIXTEEN_BIT {
      // Its sides passed the same limits; libvips reads 16-bit samples as sRGB.
      return try decodeSmall(
        png, targetSize: nil, contentMode: .aspectFit, allowed: TESSERA_FORMAT_PNG.rawValue)
    }
    guard status == 0, let pixels else {
      throw .decodingFailed("the shared thumbnail did not decode: \(Self.string(reason))")
    }
    defer { tessera_png_free(pixels) }
    guard width > 0, height > 0, length == Int(width) * Int(height) * 4 else {
      throw .decodingFailed("libpng returned \(length) bytes for \(width)x\(height) RGBA")
    }
    let size = PixelSize(width: Int(width), height: Int(height))
    return try Image(
      width: size.width, height: size.height,
      pixels: [UInt8](UnsafeBufferPointer(start: pixels, count: length)), originalSize: size)
  }

  /// libvips, started in the background the first time anything may need it (an original
  /// or a download to decode); a launch whose tiles all come from shared thumbnails never
  /// waits for it, nor shares its two cores with it before the first screen.
  static let startLibvips: Void = {
    DispatchQueue.global(qos: .userInitiated).async { _ = tessera_vips_init() }
  }()
}
