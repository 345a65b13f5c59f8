/// The server's generated photos without HTTP: the very bytes `GET /photos/{id}_{secret}_{size}.{ext}`
/// answers for a seed, for simulators and benchmarks that want real images on a virtual clock.
///
/// ```swift
/// let photo = try GeneratedImages.photo(id: 42, size: "m", seed: 1)
/// photo.bytes.count; photo.contentType; photo.width; photo.height
/// GeneratedImages.path(id: 42, size: "m", seed: 1)   // "photos/42_…_m.jpg"
/// ```
///
/// Sizes are Flickr's suffixes ("s", "q", "t", "m", "n", "w", "" for 500 px, "z", "c", "b",
/// "h", "k", "o"). Sizes and paths are O(1); bytes are O(pixels) (painted and encoded on
/// every call: callers cache what they reuse).
public enum GeneratedImages {
  /// One encoded photo and its pixel size.
  public struct Photo: Sendable {
    public let bytes: [UInt8]
    public let contentType: String
    public let width: Int
    public let height: Int
  }

  /// Why no photo could be made.
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  /// The photo's pixel size at `size`; nil for an unknown size suffix or an id below 1.
  public static func size(id: Int, size: String, seed: UInt64 = 1) -> (width: Int, height: Int)? {
    guard id >= 1, let variant = ImageVariant(rawValue: size) else { return nil }
    return variant.size(id: id, seed: seed)
  }

  /// The photo's original (largest) pixel size.
  public static func originalSize(id: Int, seed: UInt64 = 1) -> (width: Int, height: Int) {
    ImageVariant.originalSize(id: id, seed: seed)
  }

  /// The path the feed links for this photo and size, relative to the server's base URL.
  public static func path(id: Int, size: String, seed: UInt64 = 1) -> String {
    let suffix = size.isEmpty ? "" : "_\(size)"
    return
      "photos/\(id)_\(Catalog.secret(id: id, seed: seed))\(suffix).\(Catalog.format(id: id).rawValue)"
  }

  /// The encoded bytes the server sends for this photo and size.
  public static func photo(id: Int, size: String, seed: UInt64 = 1) throws(Failure) -> Photo {
    guard id >= 1, let variant = ImageVariant(rawValue: size) else {
      throw Failure(description: "no photo \(id) at size “\(size)”")
    }
    let key = ImageKey(kind: .photo, id: id, variant: variant, format: Catalog.format(id: id))
    do {
      let image = try ImageStore.generate(key, seed: seed)
      let (width, height) = ImageStore.size(key, seed: seed)
      return Photo(
        bytes: image.bytes, contentType: key.format.contentType, width: width, height: height)
    } catch {
      throw Failure(description: "generating photo \(id) at size “\(size)”: \(error)")
    }
  }
}
