/// One generated image: which picture, at which size, in which encoding.
package struct ImageKey: Hashable, Sendable, CustomStringConvertible {
  /// A feed photo, or a user's (square) avatar.
  package enum Kind: Hashable, Sendable {
    case photo
    case avatar
  }

  package let kind: Kind
  package let id: Int
  package let variant: ImageVariant
  package let format: ImageFormat

  package init(kind: Kind, id: Int, variant: ImageVariant, format: ImageFormat) {
    self.kind = kind
    self.id = id
    self.variant = variant
    self.format = format
  }

  package var description: String { "\(kind) \(id) \(variant.rawValue) \(format.rawValue)" }
}

/// Paints and encodes generated images: the one place a key becomes bytes.
package enum ImageSynthesizer {
  /// The pixel size of `key`'s image under `seed`, without painting it. O(1).
  package static func size(of key: ImageKey, seed: UInt64) -> PixelSize {
    switch key.kind {
    case .photo:
      return key.variant.size(id: key.id, seed: seed)
    case .avatar:
      let side = key.variant.longestEdge ?? 512
      return PixelSize(width: side, height: side)
    }
  }

  /// `key`'s image under `seed`, painted and encoded. O(pixels).
  package static func encode(_ key: ImageKey, seed: UInt64) throws -> [UInt8] {
    let size = size(of: key, seed: seed)
    let pictureSeed = key.kind == .photo ? seed : seed ^ 0xA7A7_A7A7
    let painter = ImagePainter(
      id: key.id, seed: pictureSeed, width: size.width, height: size.height)
    return try GeneratedImageEncoder.encode(
      rgb: painter.paint(), width: size.width, height: size.height, as: key.format)
  }
}
