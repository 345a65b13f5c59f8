/// Every way a load can fail, each with a message a person can act on.
public enum ImagePipelineError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was too large, and the limit it broke.
  public enum Excess: Hashable, Sendable {
    case bytes(Int, limit: Int)
    case pixels(width: Int, height: Int, limit: Int)
  }

  /// The URL is not an http(s) URL with a host nor a file URL.
  case invalidURL(String)
  /// The server answered with a status outside 2xx.
  case badStatus(Int)
  /// The response is not an image: its content type (nil when none was sent and the bytes
  /// were not recognised either).
  case notAnImage(contentType: String?)
  /// The response body or the image's pixel count is over the configured limit. Pixel counts
  /// come from the header, so a decompression bomb is refused before any decoding.
  case tooLarge(Excess)
  /// The bytes looked like an image but could not be decoded.
  case decodingFailed(String)
  /// The server did not answer in time.
  case timedOut
  /// Every subscriber cancelled (or the one that asked did).
  case cancelled
  /// The transport failed: no connection, connection reset, DNS and so on.
  case networkFailed(String)
  /// `CachePolicy.onlyFromCache` and neither cache holds the image.
  case notInCache

  public var description: String {
    switch self {
    case .invalidURL(let url): "invalid image URL '\(url)' (need http(s)://host/… or file://)"
    case .badStatus(let code): "server answered HTTP \(code)"
    case .notAnImage(let type): "not an image (content type \(type.map { "'\($0)'" } ?? "none"))"
    case .tooLarge(.bytes(let bytes, let limit)):
      "too large: \(bytes) bytes, the limit is \(limit)"
    case .tooLarge(.pixels(let width, let height, let limit)):
      "too large: \(width)x\(height) pixels, the limit is \(limit) pixels"
    case .decodingFailed(let reason): "decoding failed: \(reason)"
    case .timedOut: "timed out"
    case .cancelled: "cancelled"
    case .networkFailed(let reason): "network error: \(reason)"
    case .notInCache: "not in cache (only-from-cache policy)"
    }
  }
}
