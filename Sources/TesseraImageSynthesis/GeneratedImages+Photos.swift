extension GeneratedImages {
  /// One encoded photo and its pixel size.
  public struct Photo: Sendable {
    /// The encoded file.
    public let bytes: [UInt8]
    /// Its MIME type, e.g. "image/jpeg".
    public let contentType: String
    /// Its pixel size.
    public let size: PixelSize
  }

  /// Why no photo could be made.
  public struct Failure: Error, CustomStringConvertible {
    /// What went wrong, as a sentence.
    public let description: String
  }

  /// The encoded bytes the server sends for this photo and size, in `format` when given, else
  /// the photo's own (`format(id:)`).
  public static func photo(
    id: Int, size: String, format: ImageFormat? = nil, seed: UInt64 = 1
  ) throws(Failure) -> Photo {
    guard id >= 1, let variant = ImageVariant(rawValue: size) else {
      throw Failure(description: "no photo \(id) at size “\(size)”")
    }
    let key = ImageKey(
      kind: .photo, id: id, variant: variant, format: format ?? Self.format(id: id))
    do {
      let bytes = try ImageSynthesizer.encode(key, seed: seed)
      return Photo(
        bytes: bytes, contentType: key.format.contentType,
        size: ImageSynthesizer.size(of: key, seed: seed))
    } catch {
      throw Failure(description: "generating photo \(id) at size “\(size)”: \(error)")
    }
  }
}
