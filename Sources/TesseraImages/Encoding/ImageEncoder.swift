import CVipsShim
import Foundation

/// Writes an image back out as a file's bytes, through libvips' savers: a thumbnail of an
/// upload to store or serve, a processed picture to send on.
///
/// An ``Image`` holds pixels only, so what is written carries no metadata (no EXIF, no
/// location, no camera serial number): the saver is also told to strip any. Transparent
/// pixels become white in a JPEG, which has no alpha; the other formats keep it.
///
/// ```swift
/// let webp: Data = try ImageEncoder.encode(image, as: .webp(quality: 80))
/// ```
public enum ImageEncoder {
  /// A format to write, with its quality where it has one (1…100, clamped; higher is larger
  /// and closer to the pixels).
  public enum Format: Hashable, Sendable, CustomStringConvertible {
    case jpeg(quality: Int)
    case png
    case webp(quality: Int)
    case avif(quality: Int)

    /// The type a server names it by: "image/jpeg", "image/png", "image/webp", "image/avif".
    public var mimeType: String {
      switch self {
      case .jpeg: "image/jpeg"
      case .png: "image/png"
      case .webp: "image/webp"
      case .avif: "image/avif"
      }
    }

    /// "JPEG (quality 80)", "PNG".
    public var description: String {
      switch self {
      case .jpeg(let quality): "JPEG (quality \(Self.clamped(quality)))"
      case .png: "PNG"
      case .webp(let quality): "WebP (quality \(Self.clamped(quality)))"
      case .avif(let quality): "AVIF (quality \(Self.clamped(quality)))"
      }
    }

    /// libvips' saver and options, by file suffix.
    var suffix: String {
      switch self {
      case .jpeg(let quality): ".jpg[Q=\(Self.clamped(quality)),strip,optimize_coding]"
      case .png: ".png[strip]"
      case .webp(let quality): ".webp[Q=\(Self.clamped(quality)),strip]"
      case .avif(let quality): ".avif[Q=\(Self.clamped(quality)),strip]"
      }
    }

    private static func clamped(_ quality: Int) -> Int { min(max(quality, 1), 100) }
  }

  /// `image` written as `format`. Throws `.encodingFailed` with libvips' reason.
  ///
  /// - Complexity: O(pixels), the saver's own cost aside.
  public static func encode(_ image: Image, as format: Format) throws(ImagePipelineError) -> Data {
    guard tessera_vips_init() == 0 else { throw .encodingFailed(ImageDecoder.lastError()) }
    let opaque = image.pixels.withUnsafeBufferPointer { pixels in
      stride(from: 3, to: pixels.count, by: 4).allSatisfy { pixels[$0] == 255 }
    }
    // A JPEG has no alpha: the pixels are laid on white first (libvips would use black).
    let (pixels, bands): ([UInt8], Int32) =
      if case .jpeg = format { (onWhite(image.pixels), 3) } else if opaque && format == .png {
        (onWhite(image.pixels), 3)
      } else { (image.pixels, 4) }
    var out: UnsafeMutableRawPointer?
    var length = 0
    let status = pixels.withUnsafeBufferPointer { buffer in
      tessera_vips_encode(
        buffer.baseAddress, buffer.count, Int32(image.width), Int32(image.height), bands,
        format.suffix, &out, &length)
    }
    guard status == 0, let out else {
      throw .encodingFailed("\(format): \(ImageDecoder.lastError())")
    }
    defer { tessera_vips_free(out) }
    let written = Data(bytes: out, count: length)
    if case .webp = format { return WebPMetadataStrip.stripped(written) }
    return written
  }

  /// RGBA composed over white, as RGB. O(pixels).
  static func onWhite(_ rgba: [UInt8]) -> [UInt8] {
    var rgb = [UInt8](repeating: 0, count: rgba.count / 4 * 3)
    rgba.withUnsafeBufferPointer { source in
      rgb.withUnsafeMutableBufferPointer { target in
        for pixel in 0..<(source.count / 4) {
          let alpha = Int(source[pixel * 4 + 3])
          for channel in 0..<3 {
            let value = Int(source[pixel * 4 + channel])
            target[pixel * 3 + channel] = UInt8((value * alpha + 255 * (255 - alpha) + 127) / 255)
          }
        }
      }
    }
    return rgb
  }
}
