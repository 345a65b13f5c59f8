import TesseraUtilities

/// The generated photos without HTTP: the very bytes `TesseraServer` answers
/// `GET /photos/{id}_{secret}_{size}.{ext}` with for a seed, for simulators, benchmarks and
/// tests that want real images without a server.
///
/// ```swift
/// let photo = try GeneratedImages.photo(id: 42, size: "m", seed: 1)
/// photo.bytes.count; photo.contentType; photo.size
/// GeneratedImages.path(id: 42, size: "m", seed: 1)   // "photos/42_…_m.jpg"
/// ```
///
/// Sizes are Flickr's suffixes ("s", "q", "t", "m", "n", "w", "" for 500 px, "z", "c", "b",
/// "h", "k", "o"). Sizes, names and paths are O(1); bytes are O(pixels) (painted and encoded on
/// every call: callers cache what they reuse).
public enum GeneratedImages {
  /// The photo's pixel size at `size`; nil for an unknown size suffix or an id below 1.
  public static func size(id: Int, size: String, seed: UInt64 = 1) -> PixelSize? {
    guard id >= 1, let variant = ImageVariant(rawValue: size) else { return nil }
    return variant.size(id: id, seed: seed)
  }

  /// The photo's original (largest) pixel size.
  public static func originalSize(id: Int, seed: UInt64 = 1) -> PixelSize {
    ImageVariant.originalSize(id: id, seed: seed)
  }

  /// The format photo `id` is encoded in: mostly JPEG, as on Flickr, with some PNG and WebP
  /// so every decoder gets exercised.
  public static func format(id: Int) -> ImageFormat {
    switch id % 10 {
    case 3: .png
    case 7: .webp
    default: .jpeg
    }
  }

  /// The ten hex digits of Flickr's `secret` in photo `id`'s file name under `seed`.
  public static func secret(id: Int, seed: UInt64 = 1) -> String {
    var random = SplitMix64(seed: seed, 0x5EC2, UInt64(bitPattern: Int64(id)))
    return String(StableHash.hex(random.next()).prefix(10))
  }

  /// The path the feed links for this photo and size, relative to the server's base URL; in
  /// `format` when given, else the photo's own (`format(id:)`).
  public static func path(
    id: Int, size: String, format: ImageFormat? = nil, seed: UInt64 = 1
  ) -> String {
    let suffix = size.isEmpty ? "" : "_\(size)"
    let ext = (format ?? Self.format(id: id)).rawValue
    return "photos/\(id)_\(secret(id: id, seed: seed))\(suffix).\(ext)"
  }
}
