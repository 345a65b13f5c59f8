import CVipsShim
import Foundation

/// The decode stage: encoded bytes → an RGBA bitmap at the target size, through libvips'
/// shrink-on-load thumbnailer (a JPEG is decoded at 1/2, 1/4 or 1/8 scale when that suffices;
/// a full-size bitmap is never made and then scaled). Blocking and CPU-bound: the pipeline
/// runs it on its own threads, never the main actor or the cooperative pool.
///
/// The pixel count is read from the header first, so a decompression bomb (a small file
/// that claims gigapixels) is refused before a single pixel is decoded.
struct ImageDecoder: Sendable {
  let maxPixels: Int

  func decode(
    _ data: Data, targetSize: PixelSize?, contentMode: ImageRequest.ContentMode
  )
    throws(ImagePipelineError) -> Image
  {
    let original = try header(of: data)
    guard original.width * original.height <= maxPixels else {
      throw .tooLarge(.pixels(width: original.width, height: original.height, limit: maxPixels))
    }
    let box = targetSize ?? original
    guard box.width > 0, box.height > 0 else {
      throw .decodingFailed("target size \(box) is not positive")
    }
    let fit: TesseraFit =
      switch targetSize == nil ? .aspectFit : contentMode {
      case .aspectFit: TESSERA_FIT_INSIDE
      case .aspectFill: TESSERA_FIT_FILL
      case .exact: TESSERA_FIT_EXACT
      }
    var pixels: UnsafeMutablePointer<UInt8>?
    var length = 0
    var width: Int32 = 0
    var height: Int32 = 0
    let status = data.withUnsafeBytes { raw in
      tessera_vips_thumbnail_rgba(
        raw.baseAddress, raw.count, Int32(clamping: box.width), Int32(clamping: box.height),
        Int32(fit.rawValue), &pixels, &length, &width, &height)
    }
    guard status == 0, let pixels else { throw .decodingFailed(Self.lastError()) }
    defer { tessera_vips_free(pixels) }
    guard length == Int(width) * Int(height) * 4 else {
      throw .decodingFailed("libvips returned \(length) bytes for \(width)x\(height) RGBA")
    }
    let bitmap = [UInt8](UnsafeBufferPointer(start: pixels, count: length))
    return Image(width: Int(width), height: Int(height), pixels: bitmap, originalSize: original)
  }

  /// The source's dimensions, from its header only.
  func header(of data: Data) throws(ImagePipelineError) -> PixelSize {
    var width: Int32 = 0
    var height: Int32 = 0
    var bands: Int32 = 0
    let status = data.withUnsafeBytes { raw in
      tessera_vips_header(raw.baseAddress, raw.count, &width, &height, &bands, nil, 0)
    }
    guard status == 0 else { throw .decodingFailed(Self.lastError()) }
    guard width > 0, height > 0 else {
      throw .decodingFailed("the header says \(width)x\(height)")
    }
    return PixelSize(width: Int(width), height: Int(height))
  }

  private static func lastError() -> String {
    var buffer = [CChar](repeating: 0, count: 512)
    let count = tessera_vips_last_error(&buffer, buffer.count)
    let text = String(
      decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let firstLine = text.split(separator: "\n").first.map(String.init) ?? ""
    return firstLine.isEmpty ? "libvips could not read the image" : firstLine
  }
}
