import Foundation
import TesseraUtilities

/// A video's picture: its poster, a frame about 10 % in, made by the desktop's own
/// thumbnailer for its MIME type (`SystemThumbnailer`: `ffmpegthumbnailer` on Debian) as a PNG,
/// which the pipeline then decodes, fits and keeps like any image (and writes into the shared
/// thumbnail folders, as a file manager would). No video bytes reach a decoder of ours.
enum VideoPoster {
  /// The poster's longest side for the detail view: the freedesktop.org xx-large size.
  static let side = 1024
  /// A tile's poster: the large size, made in about two thirds of the time of the detail
  /// view's (120 against 166 ms a clip, `ffmpegthumbnailer` on 2 cores).
  static let tileSide = 256

  /// The poster side for a box of `target` pixels (nil: the original size).
  /// - Complexity: O(1).
  static func side(for target: PixelSize?) -> Int {
    guard let target, max(target.width, target.height) <= tileSide else { return side }
    return tileSide
  }

  /// The thumbnailers found, per MIME type, once per process.
  private static let found = Locked<[String: SystemThumbnailer?]>([:])

  static func png(
    atPath path: String, mimeType: String, side: Int = side
  ) throws(ImagePipelineError) -> Data {
    let thumbnailer = found.withLock { cache in
      if let known = cache[mimeType] { return known }
      let made = SystemThumbnailer.find(for: mimeType)
      cache[mimeType] = made
      return made
    }
    guard let thumbnailer else {
      throw .decodingFailed(
        "no thumbnailer for \(mimeType) videos: install ffmpegthumbnailer for their posters")
    }
    guard let png = thumbnailer.thumbnail(ofFileAt: path, size: side) else {
      throw .decodingFailed(
        "the video's poster could not be made (\(thumbnailer.exec.first ?? ""))")
    }
    return png
  }
}
