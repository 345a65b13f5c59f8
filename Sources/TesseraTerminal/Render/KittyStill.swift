import TesseraUtilities

/// A still kitty upload as the work it is: the centre of a placement's bitmap cropped to its
/// tile's aspect, scaled to the tile's pixels (a fifth of the side for a preview) and encoded
/// for the wire. That is the costly part of an upload (a palette PNG of a 380×280 photo tile
/// takes 75 ms) and it does not depend on the kitty id the upload goes under, so
/// ``KittyLayer`` has it made by an ``EncodeAhead`` under a ``Key`` and wraps the result in
/// commands when the link has room.
///
/// - Complexity: ``key(for:box:preview:format:)`` O(1); ``encode(_:as:)`` O(crop + upload
///   pixels) plus compression.
enum KittyStill {
  typealias Encoder = EncodeAhead<Key, Encoded>

  /// What an upload is made from, and of: equal keys encode to the same bytes.
  struct Key: Hashable, Sendable {
    var imageID: UInt64
    /// The placement's bitmap size: a later decode at another size is another upload.
    var bitmap: PixelSize
    var crop: KittyCommands.SourceRect
    var size: PixelSize
    var format: KittyPayloadFormat
    var colours: Int
  }

  /// An upload's payload, and the pixels resampled to make it (``RenderStatistics``).
  struct Encoded: Sendable {
    var payload: KittyCommands.Payload
    var pixelsResampled: Int
  }

  /// The crop of `bitmap` that has `box`'s aspect, and the size it is uploaded at: the box's
  /// pixels at most, both sides alike, scaled by ``KittyLayer/previewScale`` for a preview.
  static func fit(
    _ bitmap: Bitmap, box: PixelSize, preview: Bool
  ) -> (crop: KittyCommands.SourceRect, size: PixelSize) {
    let crop = KittyGeometry.fillCrop(
      of: PixelSize(width: bitmap.width, height: bitmap.height), toAspectOf: box)
    let size = KittyGeometry.uploadSize(
      crop: PixelSize(width: crop.width, height: crop.height), box: box,
      scale: preview ? KittyLayer.previewScale : 1)
    return (crop, size)
  }

  /// `bitmap` cropped to `crop` and scaled to `size`, and the pixels resampled for it.
  static func fitted(
    _ bitmap: Bitmap, crop: KittyCommands.SourceRect, size: PixelSize
  ) -> (Bitmap, resampled: Int) {
    let pixels = KittyGeometry.cropped(bitmap, to: crop)
    guard size.width != pixels.width || size.height != pixels.height,
      let smaller = try? Bitmap(
        width: size.width, height: size.height,
        pixels: AreaResampler.resample(pixels, width: size.width, height: size.height))
    else { return (pixels, 0) }
    return (smaller, size.width * size.height)
  }

  /// The key of `placement`'s upload into a tile of `box` pixels.
  static func key(
    for placement: ImagePlacement, box: PixelSize, preview: Bool, format: KittyPayloadFormat
  ) -> Key {
    let bitmap = placement.bitmap
    let (crop, size) = fit(bitmap, box: box, preview: preview)
    return Key(
      imageID: placement.imageID, bitmap: PixelSize(width: bitmap.width, height: bitmap.height),
      crop: crop, size: size, format: format,
      colours: preview ? KittyLayer.previewColours : SixelPalette.largestPalette)
  }

  /// The upload `key` names, of `bitmap` (the placement's).
  static func encode(_ bitmap: Bitmap, as key: Key) -> Encoded {
    let (pixels, resampled) = fitted(bitmap, crop: key.crop, size: key.size)
    return Encoded(
      payload: KittyCommands.Payload(pixels, format: key.format, colours: key.colours),
      pixelsResampled: resampled)
  }
}
