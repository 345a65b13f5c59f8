import CVipsShim
import Foundation
import TesseraPhotoFormats

/// The decode stage: encoded bytes → an RGBA bitmap at the target size, through libvips'
/// shrink-on-load thumbnailer (a JPEG is decoded at 1/2, 1/4 or 1/8 scale when that suffices;
/// a full-size bitmap is never made and then scaled). Blocking and CPU-bound: the pipeline
/// runs it on its own threads, never the main actor or the cooperative pool.
///
/// Decoders by trust: the format libvips would pick from the header is checked against the
/// request's source first (`allowedFormats(for:)`), so network bytes only ever reach the photo
/// decoders; anything else is `.unsupportedFormat` before a decoder runs. The pixel count and
/// sides are read from the header next, so a decompression bomb (a small file that claims
/// gigapixels) is refused before a single pixel is decoded.
///
/// Public for one-off decodes outside a pipeline (a server's upload, bytes from a database),
/// with the same shrink-on-load and the same limits:
///
/// ```swift
/// let thumbnail = try ImageDecoder().decode(
///   upload, targetSize: PixelSize(width: 256, height: 256), contentMode: .aspectFill)
/// ```
public struct ImageDecoder: Sendable {
  /// The largest image (width × height, from its header) decoded.
  public let maxPixels: Int

  /// A decoder that refuses images of more than `maxPixels` (default 100 megapixels, as
  /// `ImagePipeline.Configuration`'s).
  public init(maxPixels: Int = 100_000_000) {
    self.maxPixels = maxPixels
  }

  /// The formats (`TesseraFormat` bits) bytes from `source` may be decoded as: the format
  /// table's (`PhotoFormat.sources`).
  static func allowedFormats(for source: ImageRequest.Source) -> UInt32 {
    switch source {
    case .network: PhotoFormat.decoders(from: .network)
    case .localFolder: PhotoFormat.decoders(from: .localFolder)
    }
  }

  /// `data` decoded into `targetSize` (nil: the original size) with `contentMode`, upright
  /// by its EXIF orientation; bytes from `source` reach only the decoders it allows (the
  /// photo formats for `.network`, the default). Blocking and CPU-bound: call it off the
  /// main actor and the cooperative pool.
  public func decode(
    _ data: Data, targetSize: PixelSize?, contentMode: ImageRequest.ContentMode = .aspectFit,
    source: ImageRequest.Source = .network
  )
    throws(ImagePipelineError) -> Image
  {
    let allowed = Self.allowedFormats(for: source)
    // A local photo's own embedded thumbnail, when it covers the box, saves decoding the
    // original (network bytes never take this path: one decoder fewer reaches them).
    if source == .localFolder, let targetSize,
      let image = try decodeEmbeddedThumbnail(
        of: data, targetSize: targetSize, contentMode: contentMode, allowed: allowed)
    {
      return image
    }
    return try decode(data, targetSize: targetSize, contentMode: contentMode, allowed: allowed)
  }

  /// The photo's EXIF thumbnail (``EmbeddedThumbnail``) decoded into the box and turned
  /// upright, with the photo's own size; nil when it has none, or one of another shape (within
  /// 1 %) or too small to fill the box without upscaling.
  func decodeEmbeddedThumbnail(
    of data: Data, targetSize: PixelSize, contentMode: ImageRequest.ContentMode, allowed: UInt32
  ) throws(ImagePipelineError) -> Image? {
    guard let thumbnail = EmbeddedThumbnail(in: data) else { return nil }
    let original = try header(of: data, allowed: allowed)
    let box = try fittingBox(targetSize, original: original, contentMode: contentMode)
    guard let stored = try? header(of: thumbnail.jpeg, allowed: TESSERA_FORMAT_JPEG.rawValue)
    else { return nil }
    let turns = thumbnail.orientation >= 5
    let shown = turns ? PixelSize(width: stored.height, height: stored.width) : stored
    let (ow, oh) = (Double(original.width), Double(original.height))
    let (tw, th) = (Double(shown.width), Double(shown.height))
    guard abs(ow * th - oh * tw) <= 0.01 * ow * th else { return nil }
    let scale =
      contentMode == .aspectFit
      ? min(Double(box.width) / ow, Double(box.height) / oh)
      : max(Double(box.width) / ow, Double(box.height) / oh)
    guard tw >= (ow * scale).rounded(.down), th >= (oh * scale).rounded(.down) else { return nil }
    let storedBox = turns ? PixelSize(width: box.height, height: box.width) : box
    guard
      let decoded = try? decodeSmall(
        thumbnail.jpeg, targetSize: storedBox, contentMode: contentMode,
        allowed: TESSERA_FORMAT_JPEG.rawValue)
    else { return nil }
    guard let upright = try? decoded.turnedUpright(from: thumbnail.orientation) else { return nil }
    return try Image(
      width: upright.width, height: upright.height, pixels: upright.pixels,
      originalSize: original)
  }

  /// `decode` with the allowed formats (`TesseraFormat` bits) given directly: thumbnails from
  /// the shared folders are PNG only, whatever their request's source.
  func decode(
    _ data: Data, targetSize: PixelSize?, contentMode: ImageRequest.ContentMode,
    allowed: UInt32
  ) throws(ImagePipelineError) -> Image {
    // A PNG's text chunks never reach libvips, which would inflate each (PNGTextStrip).
    let data = PNGTextStrip.strippingText(data) ?? data
    let original = try header(of: data, allowed: allowed)
    let box = try fittingBox(targetSize, original: original, contentMode: contentMode)
    if targetSize != nil, allowed & TESSERA_FORMAT_JPEG.rawValue != 0,
      let image = try decodeJPEG(data, original: original, box: box, contentMode: contentMode)
    {
      return image
    }
    let fit: TesseraFit =
      switch targetSize == nil ? .aspectFit : contentMode {
      case .aspectFit: TESSERA_FIT_INSIDE
      case .aspectFill: TESSERA_FIT_FILL
      case .exact: TESSERA_FIT_EXACT
      }
    // An orientation libvips does not see is applied here, to a bitmap decoded into the box
    // as stored.
    let late = PNGLateOrientation.orientation(data)
    let stored = (late ?? 1) >= 5 ? PixelSize(width: box.height, height: box.width) : box
    let image = try Self.bitmap(originalSize: original) { pixels, length, width, height in
      data.withUnsafeBytes { raw in
        tessera_vips_thumbnail_rgba_allowed(
          raw.baseAddress, raw.count, allowed,
          Int32(clamping: stored.width), Int32(clamping: stored.height), Int32(fit.rawValue),
          &pixels, &length, &width, &height)
      }
    }
    return try late.map { (turn) throws(ImagePipelineError) in try image.turnedUpright(from: turn) }
      ?? image
  }

  /// The EXIF orientation the decode shows `data` in: libvips' own (it turns JPEG, PNG, WebP
  /// and TIFF by their EXIF), or that of a PNG's eXIf after its pixels, which libvips does
  /// not read and the decode applies itself (`PNGLateOrientation`).
  static func orientation(of data: Data) -> Int {
    let seen = Int(data.withUnsafeBytes { tessera_vips_orientation($0.baseAddress, $0.count) })
    return seen > 1 ? seen : PNGLateOrientation.orientation(data) ?? seen
  }

  /// The RGBA bitmap a shim decode `call` hands back (copied, then freed), as an image of a
  /// source of `originalSize`; its sides and byte count are checked, never trusted.
  private static func bitmap(
    originalSize: PixelSize,
    _ call: (
      inout UnsafeMutablePointer<UInt8>?, inout Int, inout Int32, inout Int32
    ) -> Int32
  ) throws(ImagePipelineError) -> Image {
    var pixels: UnsafeMutablePointer<UInt8>?
    var length = 0
    var width: Int32 = 0
    var height: Int32 = 0
    let status = call(&pixels, &length, &width, &height)
    guard status == 0, let pixels else { throw .decodingFailed(DecoderMessage.plain(lastError())) }
    defer { tessera_vips_free(pixels) }
    guard width > 0, height > 0, length == Int(width) * Int(height) * 4 else {
      throw .decodingFailed("libvips returned \(length) bytes for \(width)x\(height) RGBA")
    }
    return try Image(
      width: Int(width), height: Int(height),
      pixels: [UInt8](UnsafeBufferPointer(start: pixels, count: length)),
      originalSize: originalSize)
  }

  /// The most pixels an image may have for ``decodeSmall(_:targetSize:contentMode:allowed:)``
  /// to decode it whole: a 1,024-px thumbnail, the largest the shared folders hold.
  static let smallImagePixels = 1_024 * 1_024

  /// `decode` for images already small (shared thumbnails, a camera's embedded one): decoded
  /// whole at their own size and resized here (``Image/fitted(into:contentMode:)``), which
  /// costs a fraction of libvips' thumbnailer on a few thousand pixels. Larger images take
  /// the thumbnailer.
  func decodeSmall(
    _ data: Data, targetSize: PixelSize?, contentMode: ImageRequest.ContentMode,
    allowed: UInt32
  ) throws(ImagePipelineError) -> Image {
    let data = PNGTextStrip.strippingText(data) ?? data
    let size = try header(of: data, allowed: allowed)
    guard size.width * size.height <= Self.smallImagePixels else {
      return try decode(data, targetSize: targetSize, contentMode: contentMode, allowed: allowed)
    }
    if let targetSize { try Self.requirePositive(targetSize) }
    if allowed & TESSERA_FORMAT_JPEG.rawValue != 0,
      let whole = try Self.decodeWholeJPEG(data, maxPixels: Self.smallImagePixels)
    {
      return try whole.fitted(into: targetSize, contentMode: contentMode)
    }
    let whole = try Self.bitmap(originalSize: size) { pixels, length, width, height in
      data.withUnsafeBytes { raw in
        tessera_vips_load_rgba_allowed(
          raw.baseAddress, raw.count, allowed, &pixels, &length, &width, &height)
      }
    }
    guard whole.width * whole.height <= Self.smallImagePixels else {
      throw .decodingFailed("libvips returned \(whole.width)x\(whole.height) for a small image")
    }
    let upright = try PNGLateOrientation.orientation(data).map {
      (turn) throws(ImagePipelineError) in try whole.turnedUpright(from: turn)
    }
    return try (upright ?? whole).fitted(into: targetSize, contentMode: contentMode)
  }

  /// The source's dimensions, upright (EXIF orientations 5…8 swap them, as the decode turns
  /// the image), from its header only, once its format is known to be allowed for `source`
  /// and its size within the limits.
  public func header(
    of data: Data, source: ImageRequest.Source = .network
  ) throws(ImagePipelineError) -> PixelSize {
    try header(of: data, allowed: Self.allowedFormats(for: source))
  }

  /// `header(of:source:)` with the allowed formats given directly.
  func header(of data: Data, allowed: UInt32) throws(ImagePipelineError) -> PixelSize {
    let data = PNGTextStrip.strippingText(data) ?? data
    if allowed & TESSERA_FORMAT_JPEG.rawValue != 0, let stored = try Self.jpegStoredSize(of: data) {
      try checkLimits(width: stored.width, height: stored.height)
      return EmbeddedThumbnail.orientation(ofJPEG: data) >= 5
        ? PixelSize(width: stored.height, height: stored.width) : stored
    }
    var width: Int32 = 0
    var height: Int32 = 0
    var bands: Int32 = 0
    var name = [CChar](repeating: 0, count: 64)
    let status = data.withUnsafeBytes { raw in
      tessera_vips_header_allowed(
        raw.baseAddress, raw.count, allowed, &width, &height, &bands,
        &name, name.count)
    }
    guard status != TESSERA_REFUSED_FORMAT else {
      _ = Self.lastError()  // the refusal's own text: not for the next caller to read
      throw .unsupportedFormat(Self.string(name))
    }
    guard status == 0 else { throw .decodingFailed(DecoderMessage.plain(Self.lastError())) }
    try checkLimits(width: Int(width), height: Int(height))
    let orientation = Self.orientation(of: data)
    return orientation >= 5
      ? PixelSize(width: Int(height), height: Int(width))
      : PixelSize(width: Int(width), height: Int(height))
  }

  /// A header's sides: positive, within `maxPixels` and `ImageLimits.maxImageSide`.
  private func checkLimits(width: Int, height: Int) throws(ImagePipelineError) {
    guard width > 0, height > 0 else {
      throw .decodingFailed("the header says \(width)x\(height)")
    }
    // Both sides come from Int32s: their product fits in Int.
    guard width * height <= maxPixels else {
      throw .tooLarge(.pixels(width: width, height: height, limit: maxPixels))
    }
    let side = ImageLimits.maxImageSide
    guard width <= side, height <= side else {
      throw .tooLarge(.side(width: width, height: height, limit: side))
    }
  }

  /// The box handed to libvips: the request's (or the original size), each side at most
  /// `ImageLimits.maxImageSide`. Only `.exact` can make a bitmap larger than the original, so
  /// only its box is held to `maxPixels`.
  private func fittingBox(
    _ target: PixelSize?, original: PixelSize, contentMode: ImageRequest.ContentMode
  ) throws(ImagePipelineError) -> PixelSize {
    guard let target else { return original }
    try Self.requirePositive(target)
    let side = ImageLimits.maxImageSide
    let box = PixelSize(width: min(target.width, side), height: min(target.height, side))
    if contentMode == .exact, box.width * box.height > maxPixels {
      throw .tooLarge(.pixels(width: box.width, height: box.height, limit: maxPixels))
    }
    return box
  }

  /// A box to decode into must have both sides positive: a request's size is outside input.
  static func requirePositive(_ target: PixelSize) throws(ImagePipelineError) {
    guard target.width > 0, target.height > 0 else {
      throw .invalidRequest("the target size \(target) is not positive")
    }
  }

  /// A C string from a fixed buffer, up to its first NUL.
  static func string(_ characters: [CChar]) -> String {
    String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// libvips' error text's first line (and libvips' error cleared).
  static func lastError() -> String {
    var buffer = [CChar](repeating: 0, count: 512)
    let count = tessera_vips_last_error(&buffer, buffer.count)
    let text = string(Array(buffer.prefix(count)))
    let firstLine = text.split(separator: "\n").first.map(String.init) ?? ""
    return firstLine.isEmpty ? "libvips could not read the image" : firstLine
  }
}
