import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the image files of a local-folder source, and nothing a path could trick it into:
///
/// - `open` with `O_NOFOLLOW` (a symbolic link is refused, not followed out of the folder),
///   `O_NONBLOCK` (opening a FIFO or a device cannot hang) and `O_CLOEXEC`;
/// - `fstat` on the opened descriptor (not the path, which could change in between) must say
///   regular file, no larger than the limit;
/// - reading stops past the limit even if the file grows meanwhile.
///
/// The blocking calls run on a Dispatch queue, never on the cooperative pool, whose few
/// threads every task in the process shares.
enum LocalFileReader {
  /// Reads `url`'s file, at most `maxBytes`, off the cooperative pool.
  /// - Complexity: O(size of the file).
  static func contents(of url: URL, maxBytes: Int) async throws(ImagePipelineError) -> Data {
    let path = url.path
    let result = await withCheckedContinuation { continuation in
      DispatchQueue.global(qos: .userInitiated).async {
        continuation.resume(
          returning: Result { () throws(ImagePipelineError) in
            try contentsBlocking(atPath: path, maxBytes: maxBytes)
          })
      }
    }
    return try result.get()
  }

  /// The same read on the calling thread: for callers already off the cooperative pool.
  static func contentsBlocking(
    atPath path: String, maxBytes: Int
  ) throws(ImagePipelineError) -> Data {
    let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { throw refusal(path, errno: errno) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw refusal(path, errno: errno) }
    guard (status.st_mode & S_IFMT) == S_IFREG else {
      throw .fileRefused(path: path, .notARegularFile)
    }
    let limit = max(0, maxBytes)
    let size = Int(status.st_size)  // off_t is 64 bits; a regular file's size is never negative
    guard size <= limit else { throw .tooLarge(.bytes(size, limit: limit)) }
    return try readAll(descriptor, path: path, limit: limit, expected: size)
  }

  /// Reads to the end, refusing a file that grows past `limit` while it is read.
  private static func readAll(
    _ descriptor: Int32, path: String, limit: Int, expected: Int
  ) throws(ImagePipelineError) -> Data {
    var data = Data()
    data.reserveCapacity(expected)
    let chunk = 64 << 10
    var buffer = [UInt8](repeating: 0, count: chunk)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, chunk) }
      if count < 0 {
        if errno == EINTR { continue }
        throw refusal(path, errno: errno)
      }
      if count == 0 { return data }
      data.append(contentsOf: buffer[0..<count])
      guard data.count <= limit else { throw .tooLarge(.bytes(data.count, limit: limit)) }
    }
  }

  private static func refusal(_ path: String, errno code: Int32) -> ImagePipelineError {
    switch code {
    // O_NOFOLLOW on a link: ELOOP on Linux, EMLINK on FreeBSD.
    case ELOOP, EMLINK: .fileRefused(path: path, .symbolicLink)
    case ENOENT, ENOTDIR: .fileRefused(path: path, .notFound)
    // O_NONBLOCK on a FIFO with no writer opens fine; on some devices it cannot.
    case ENXIO, ENODEV, EISDIR, EWOULDBLOCK: .fileRefused(path: path, .notARegularFile)
    default: .fileRefused(path: path, .unreadable(String(cString: strerror(code))))
    }
  }
}
