import TesseraPhotoFormats

/// Every way a load can fail, each with a message a person can act on (the gallery shows it
/// in the image's tile).
public enum ImagePipelineError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was too large, and the limit it broke.
  public enum Excess: Hashable, Sendable {
    /// A body of this many bytes (announced or received so far), over the byte limit.
    case bytes(Int, limit: Int)
    /// An image whose header states more pixels than the limit.
    case pixels(width: Int, height: Int, limit: Int)
    /// A side longer than the limit, whatever the pixel count (1×100,000 is too tall to lay
    /// out or draw).
    case side(width: Int, height: Int, limit: Int)
  }

  /// Why a local file was not read.
  public enum FileRefusal: Hashable, Sendable {
    /// The path names a symbolic link: links are never followed out of the folder.
    case symbolicLink
    /// A directory, FIFO, socket or device: only regular files hold images.
    case notARegularFile
    /// No file at that path.
    case notFound
    /// The system refused to open or read it (permissions, I/O error…).
    case unreadable(String)
  }

  /// The URL is not an http(s) URL with a host nor a file URL with a path.
  case invalidURL(String)
  /// The URL's scheme is not one its source may use: a network image must be http(s) (it
  /// may never open local files), a local-folder image must be a file URL.
  case schemeNotAllowed(url: String, source: ImageRequest.Source)
  /// A local-folder file that is not read, and why.
  case fileRefused(path: String, FileRefusal)
  /// The server answered with a status outside 2xx.
  case badStatus(Int)
  /// The response is not an image: its content type (nil when none was sent and the bytes
  /// were not recognised either).
  case notAnImage(contentType: String?)
  /// The bytes are an image format Tessera never decodes from this source (SVG, PDF, TIFF
  /// from the network…): the format's name, from its header. Nothing was parsed.
  case unsupportedFormat(String)
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
  /// An image could not be written as the format asked for: libvips' reason.
  case encodingFailed(String)
  /// A request's processor could not do its step: why.
  case processingFailed(String)
  /// The pipeline was shut down (`ImagePipeline.shutdown()`) before or while this loaded.
  case shutDown
  /// The request cannot be carried out as it is: what is wrong with it (a header field HTTP
  /// does not allow, a target size that is not positive). Never about the bytes, so nothing
  /// cached is dropped for it.
  case invalidRequest(String)

  /// The sentence a person reads: what happened, and the limit or rule involved.
  public var description: String {
    switch self {
    case .invalidURL(let url): "invalid image URL '\(url)' (need http(s)://host/… or file://)"
    case .schemeNotAllowed(let url, .network):
      "'\(url)' is not loaded: images from the network may only use http(s), never local files"
    case .schemeNotAllowed(let url, .localFolder):
      "'\(url)' is not loaded: images from a local folder must be file: URLs"
    case .fileRefused(let path, .symbolicLink):
      "'\(path)' is not shown: it is a symbolic link, and links are not followed"
    case .fileRefused(let path, .notARegularFile):
      "'\(path)' is not shown: it is not a regular file"
    case .fileRefused(let path, .notFound): "'\(path)' does not exist"
    case .fileRefused(let path, .unreadable(let reason)): "cannot read '\(path)': \(reason)"
    case .badStatus(let code): "server answered HTTP \(code)"
    case .notAnImage(let type): "not an image (content type \(type.map { "'\($0)'" } ?? "none"))"
    case .unsupportedFormat(let format):
      "\(format) images are not shown here: \(Self.formatsShown)"
    case .tooLarge(.bytes(let bytes, let limit)):
      "too large: \(bytes) bytes, the limit is \(limit)"
    case .tooLarge(.pixels(let width, let height, let limit)):
      "too large: \(width)x\(height) pixels, the limit is \(limit) pixels"
    case .tooLarge(.side(let width, let height, let limit)):
      "too large: \(width)x\(height) pixels, the limit is \(limit) pixels a side"
    case .decodingFailed(let reason): "decoding failed: \(reason)"
    case .timedOut: "timed out"
    case .cancelled: "cancelled"
    case .networkFailed(let reason): "network error: \(reason)"
    case .notInCache: "not in cache (only-from-cache policy)"
    case .encodingFailed(let reason): "encoding failed: \(reason)"
    case .processingFailed(let reason): "processing failed: \(reason)"
    case .shutDown: "the image pipeline was shut down"
    case .invalidRequest(let problem): "the request cannot be sent: \(problem)"
    }
  }

  /// What is shown, from the format table: "Tessera shows JPEG, PNG, …, and from a folder
  /// also TIFF, …".
  static let formatsShown: String = {
    func list(_ names: [String]) -> String {
      names.count < 2
        ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names.last!
    }
    let stills = PhotoFormat.all.filter { $0.kind != .video }
    let everywhere = stills.filter { $0.sources.contains(.network) }.map(\.name)
    let local = stills.filter { !$0.sources.contains(.network) }.map(\.name)
    return "Tessera shows \(list(everywhere)), and from a folder also \(list(local + ["videos"]))"
  }()
}
