/// One generated image: which picture, at which size, in which encoding.
struct ImageKey: Hashable, Sendable, CustomStringConvertible {
  enum Kind: Hashable, Sendable {
    case photo
    case avatar
  }

  let kind: Kind
  let id: Int
  let variant: ImageVariant
  let format: ImageFormat

  var description: String { "\(kind) \(id) \(variant.rawValue) \(format.rawValue)" }
}

/// Encoded bytes and their validator.
struct EncodedImage: Sendable {
  let bytes: [UInt8]
  let etag: String
}

/// Generated images, kept encoded in a bounded LRU so a run does not re-encode them; requests
/// for an image being generated wait for that one generation instead of starting another.
///
/// Lookups are O(1); generation is O(pixels) and runs on a detached task, off the server's
/// event loops.
actor ImageStore {
  private let seed: UInt64
  private var cache: LRUCache<ImageKey, EncodedImage>
  private var inFlight: [ImageKey: Task<EncodedImage, any Error>] = [:]
  private(set) var generated = 0
  private(set) var hits = 0

  init(seed: UInt64, capacityBytes: Int) {
    self.seed = seed
    cache = LRUCache(capacity: capacityBytes)
  }

  func image(_ key: ImageKey) async throws -> EncodedImage {
    if let cached = cache.value(for: key) {
      hits += 1
      return cached
    }
    if let task = inFlight[key] {
      hits += 1
      return try await task.value
    }
    let seed = seed
    let task = Task.detached(priority: .userInitiated) {
      try Self.generate(key, seed: seed)
    }
    inFlight[key] = task
    defer { inFlight[key] = nil }
    let image = try await task.value
    generated += 1
    cache.insert(image, for: key, cost: image.bytes.count)
    return image
  }

  /// Pixel size of an image without generating it.
  static func size(_ key: ImageKey, seed: UInt64) -> (width: Int, height: Int) {
    switch key.kind {
    case .photo:
      return key.variant.size(id: key.id, seed: seed)
    case .avatar:
      let side = key.variant.longestEdge ?? 512
      return (side, side)
    }
  }

  static func generate(_ key: ImageKey, seed: UInt64) throws -> EncodedImage {
    let (width, height) = size(key, seed: seed)
    let pictureSeed = key.kind == .photo ? seed : seed ^ 0xA7A7_A7A7
    let painter = ImagePainter(id: key.id, seed: pictureSeed, width: width, height: height)
    let bytes = try ImageEncoder.encode(
      rgb: painter.paint(), width: width, height: height, as: key.format)
    return EncodedImage(bytes: bytes, etag: HTTPCaching.etag(for: bytes))
  }
}
