import TesseraImageSynthesis

/// An image URL's file name, parsed: `/photos/{id}_{secret}[_{size}].{ext}` or
/// `/avatars/{id}[_{size}].{ext}`.
struct ImageFileName: Equatable {
  let id: Int
  let variant: ImageVariant
  let format: ImageFormat

  /// A photo file name; nil unless the id, secret, size and extension are all valid.
  static func photo(_ name: String, catalog: Catalog) -> ImageFileName? {
    guard let (stem, format) = split(name) else { return nil }
    let parts = stem.split(separator: "_", omittingEmptySubsequences: false)
    guard parts.count == 2 || parts.count == 3, let id = Int(parts[0]),
      catalog.contains(id: id), parts[1] == GeneratedImages.secret(id: id, seed: catalog.seed)
    else { return nil }
    guard let variant = parts.count == 3 ? explicitVariant(parts[2]) : .medium else { return nil }
    return ImageFileName(id: id, variant: variant, format: format)
  }

  /// An avatar file name; no size means 150×150.
  static func avatar(_ name: String, userCount: Int) -> ImageFileName? {
    guard let (stem, format) = split(name) else { return nil }
    let parts = stem.split(separator: "_", omittingEmptySubsequences: false)
    guard parts.count == 1 || parts.count == 2, let id = Int(parts[0]),
      (1...max(1, userCount)).contains(id),
      userCount > 0
    else { return nil }
    guard let variant = parts.count == 2 ? explicitVariant(parts[1]) : .q else { return nil }
    return ImageFileName(id: id, variant: variant, format: format)
  }

  private static func split(_ name: String) -> (Substring, ImageFormat)? {
    guard let dot = name.lastIndex(of: "."),
      let format = ImageFormat(fileExtension: String(name[name.index(after: dot)...]))
    else { return nil }
    return (name[..<dot], format)
  }

  /// A written suffix: never empty (the 500 px size has none).
  private static func explicitVariant(_ suffix: Substring) -> ImageVariant? {
    guard !suffix.isEmpty else { return nil }
    return ImageVariant(rawValue: String(suffix))
  }
}
