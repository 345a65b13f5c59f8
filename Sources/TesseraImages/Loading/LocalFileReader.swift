import Foundation
import TesseraPhotoFormats
import TesseraUtilities

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the image files of a local-folder source, and nothing a path could trick it into
/// (`SafeFileRead`: no symbolic link followed, no FIFO or device opened for reading, a regular
/// file within the limit, even if it grows meanwhile).
///
/// The blocking calls run on a Dispatch queue, never on the cooperative pool, whose few
/// threads every task in the process shares.
enum LocalFileReader {
  /// Reads `url`'s file, at most `maxBytes`, off the cooperative pool.
  /// - Complexity: O(size of the file).
  static func contents(
    of url: URL, maxBytes: Int, posterSide: Int = VideoPoster.side
  ) async throws(ImagePipelineError) -> Data {
    let path = url.path
    let result = await withCheckedContinuation { continuation in
      DispatchQueue.global(qos: .userInitiated).async {
        continuation.resume(
          returning: Result { () throws(ImagePipelineError) in
            try contentsBlocking(atPath: path, maxBytes: maxBytes, posterSide: posterSide)
          })
      }
    }
    return try result.get()
  }

  /// The same read on the calling thread: for callers already off the cooperative pool.
  static func contentsBlocking(
    atPath path: String, maxBytes: Int, posterSide: Int = VideoPoster.side
  ) throws(ImagePipelineError) -> Data {
    if RawPreviewRead.isRaw(path: path) {
      return try RawPreviewRead.jpeg(atPath: path, maxFileSize: maxBytes)
    }
    if let mimeType = VideoFile.mimeType(ofPath: path) {
      return try VideoPoster.png(atPath: path, mimeType: mimeType, side: posterSide)
    }
    let bytes = try fileBlocking(atPath: path, maxBytes: maxBytes)
    // An AVIF or HEIF sequence's picture is its first frame, made by ffmpeg as a PNG:
    // Debian 12's libheif reads no picture of ffmpeg's AVIF sequences.
    if let sequence = ImageSequence(Array(bytes.prefix(64))), sequence.kind == .isoSequence {
      return try SequenceDecoder.firstFramePNG(atPath: path, maxBytes: maxBytes)
    }
    return bytes
  }

  /// The file's own bytes, read as a folder's photos are (no link followed, size checked),
  /// with no RAW preview or video poster in their place.
  static func fileBlocking(atPath path: String, maxBytes: Int) throws(ImagePipelineError) -> Data {
    switch SafeFileRead.contents(path: path, maxFileSize: maxBytes) {
    case .success(let contents): return contents.bytes
    case .failure(.symbolicLink): throw .fileRefused(path: path, .symbolicLink)
    case .failure(.notFound): throw .fileRefused(path: path, .notFound)
    case .failure(.notRegularFile): throw .fileRefused(path: path, .notARegularFile)
    case .failure(.tooLarge(let size, let limit)): throw .tooLarge(.bytes(size, limit: limit))
    case .failure(.unreadable(let reason)): throw .fileRefused(path: path, .unreadable(reason))
    }
  }
}
