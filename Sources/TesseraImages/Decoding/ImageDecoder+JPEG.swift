import CJPEG
import CVipsShim
import Foundation
import TesseraPhotoFormats
import TesseraUtilities

/// JPEG, the photos' format, decoded by libjpeg-turbo without libvips: a cold launch on a
/// folder of camera JPEGs does not load libvips' ~100 libraries (~35 ms of a core), nor pay
/// its thumbnailer's set-up per photo. The sizes are libvips' (`Image.fittingPlan`), the
/// shrink-on-load the same (libjpeg's DCT scaling, 1/8 to 1), the EXIF orientation applied
/// as libvips applies it. What libvips decodes differently goes to libvips: CMYK and YCCK
/// files, files with an ICC profile (converted to sRGB there), a box larger than the photo.
extension ImageDecoder {
  /// Whether `url` names a JPEG by its extension (.jpg, .jpeg, .jpe, any case, before any
  /// query): its decode will not need libvips, unless it turns out to be something else.
  static func isJPEGByName(_ url: String) -> Bool {
    let path = url.split(separator: "?", maxSplits: 1).first ?? ""
    guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return false }
    return PhotoFormat(extension: path[path.index(after: dot)...]) == .jpeg
  }

  /// A JPEG's stored width and height (before its EXIF orientation); nil when the bytes are
  /// not a JPEG.
  static func jpegStoredSize(of data: Data) throws(ImagePipelineError) -> PixelSize? {
    var width: Int32 = 0
    var height: Int32 = 0
    var error = [CChar](repeating: 0, count: 256)
    let status = data.withUnsafeBytes { raw in
      tessera_jpeg_header(raw.baseAddress, raw.count, &width, &height, &error, error.count)
    }
    if status == TESSERA_JPEG_NOT_JPEG { return nil }
    // Its own sentence, with the figures: not a damaged file.
    if status == TESSERA_JPEG_TOO_LARGE { throw .decodingFailed(string(error)) }
    guard status == 0 || status == TESSERA_JPEG_FOR_LIBVIPS else {
      throw .decodingFailed(DecoderMessage.plain(string(error), format: "JPEG"))
    }
    return PixelSize(width: Int(width), height: Int(height))
  }

  /// `data` (a JPEG whose upright size is `original`) decoded into `box` as `decode` makes
  /// it; nil when libvips must decode it.
  func decodeJPEG(
    _ data: Data, original: PixelSize, box: PixelSize, contentMode: ImageRequest.ContentMode
  ) throws(ImagePipelineError) -> Image? {
    let orientation = EmbeddedThumbnail.orientation(ofJPEG: data)
    let turns = orientation >= 5
    let stored = turns ? PixelSize(width: original.height, height: original.width) : original
    let storedBox = turns ? PixelSize(width: box.height, height: box.width) : box
    let plan = Image.fittingPlan(of: stored, into: storedBox, contentMode: contentMode)
    // Upscaling (`.exact` past the photo's size) is libvips' to do.
    guard plan.scaled.width <= stored.width, plan.scaled.height <= stored.height else {
      return nil
    }
    guard let decoded = try Self.jpegPixels(data, covering: plan.scaled, maxPixels: maxPixels)
    else { return nil }
    let pixels = AreaResampling.resample(
      decoded.pixels, sourceWidth: decoded.width, sourceHeight: decoded.height,
      width: plan.scaled.width, height: plan.scaled.height, crop: plan.crop)
    return try Image(
      width: plan.crop.width, height: plan.crop.height, pixels: pixels, originalSize: original
    ).turnedUpright(from: orientation)
  }

  /// A small JPEG (a camera's embedded thumbnail) decoded whole and turned upright; nil when
  /// libvips must decode it.
  static func decodeWholeJPEG(
    _ data: Data, maxPixels: Int
  ) throws(ImagePipelineError) -> Image? {
    guard let stored = try jpegStoredSize(of: data),
      let decoded = try jpegPixels(data, covering: stored, maxPixels: maxPixels)
    else { return nil }
    let orientation = EmbeddedThumbnail.orientation(ofJPEG: data)
    let upright = orientation >= 5 ? PixelSize(width: stored.height, height: stored.width) : stored
    return try Image(
      width: decoded.width, height: decoded.height, pixels: decoded.pixels, originalSize: upright
    ).turnedUpright(from: orientation)
  }

  /// libjpeg-turbo's RGBA at the smallest DCT scale that covers `size` (stored orientation);
  /// nil for a JPEG libvips must decode. Sides and byte count are checked, never trusted.
  private static func jpegPixels(
    _ data: Data, covering size: PixelSize, maxPixels: Int
  ) throws(ImagePipelineError) -> (width: Int, height: Int, pixels: [UInt8])? {
    var pixels: UnsafeMutablePointer<UInt8>?
    var length = 0
    var width: Int32 = 0
    var height: Int32 = 0
    var error = [CChar](repeating: 0, count: 256)
    let status = data.withUnsafeBytes { raw in
      tessera_jpeg_decode_rgba(
        raw.baseAddress, raw.count, Int32(clamping: max(1, size.width)),
        Int32(clamping: max(1, size.height)), Int32(clamping: ImageLimits.maxImageSide),
        maxPixels, &pixels, &length, &width, &height, &error, error.count)
    }
    if status == TESSERA_JPEG_FOR_LIBVIPS || status == TESSERA_JPEG_NOT_JPEG { return nil }
    if status == TESSERA_JPEG_TOO_LARGE { throw .decodingFailed(string(error)) }
    guard status == 0, let pixels else {
      throw .decodingFailed(DecoderMessage.plain(string(error), format: "JPEG"))
    }
    defer { tessera_jpeg_free(pixels) }
    guard width >= size.width, height >= size.height, length == Int(width) * Int(height) * 4
    else {
      throw .decodingFailed("libjpeg returned \(length) bytes for \(width)x\(height) RGBA")
    }
    return (
      Int(width), Int(height), [UInt8](UnsafeBufferPointer(start: pixels, count: length))
    )
  }
}
