import Foundation

/// What the thumbnail folders say of a request for a local original.
enum ThumbnailLookup: Sendable {
  /// A thumbnail of the original as it is now that covers the box: its PNG bytes, and the
  /// original's size when the thumbnail states it.
  case hit(Data, original: PixelSize?)
  /// This Tessera could not decode the original, which has not changed since; the reason
  /// it recorded, when there is one.
  case failedBefore(ThumbnailOriginal, reason: String?)
  /// No usable thumbnail: decode the original, and write the first of `sizes` that covers.
  case miss(ThumbnailOriginal, sizes: [ThumbnailSize])
  /// The folders do not apply: no box, a box larger than 1,024 px, or no regular file.
  case notApplicable
}

extension ThumbnailCache {
  /// Looks for a thumbnail of `path` for a decode into `target` with `contentMode`: each size
  /// that can hold the box, smallest first, until one is valid for the original as it is now
  /// (same URI, same modification time and size, within its size's square) and covers the
  /// box. Blocking: a `stat` and a few small reads.
  ///
  /// - Complexity: O(size of the thumbnails read), at most four.
  func lookUp(
    path: String, target: PixelSize?, contentMode: ImageRequest.ContentMode
  ) -> ThumbnailLookup {
    guard let target, target.width > 0, target.height > 0 else { return .notApplicable }
    let sizes = ThumbnailSize.candidates(for: target)
    guard !sizes.isEmpty, let original = ThumbnailOriginal.at(path: path) else {
      return .notApplicable
    }
    if let (_, chunks) = read(failureURL(for: original.name), for: original, within: 1) {
      return .failedBefore(
        original, reason: chunks.text["Tessera::Error"].map(ThumbnailText.oneLine))
    }
    for size in sizes {
      let url = url(of: size, for: original.name)
      guard let (data, chunks) = read(url, for: original, within: size.side) else { continue }
      let stated = ThumbnailText.statedOriginalSize(chunks)
      let thumbnail = PixelSize(width: chunks.width, height: chunks.height)
      if ThumbnailSize.covers(
        thumbnail, original: stated, target: target, contentMode: contentMode)
      {
        return .hit(data, original: stated)
      }
    }
    return .miss(original, sizes: sizes)
  }

  /// The thumbnail at `url` when it is a PNG of at most `side`×`side` whose text names
  /// `original` as it is now; nil for a missing, broken, foreign or stale one.
  func read(
    _ url: URL, for original: ThumbnailOriginal, within side: Int
  ) -> (Data, PNGTextChunks)? {
    guard
      let data = try? LocalFileReader.contentsBlocking(
        atPath: url.path, maxBytes: ThumbnailLimits.maxFileBytes),
      let chunks = (try? PNGTextChunks.parse(data))?.withCompressedText(of: data),
      chunks.width <= side, chunks.height <= side,
      Self.describes(chunks, original)
    else { return nil }
    return (data, chunks)
  }

  /// Whether a thumbnail's text is about `original` as it is now: `Thumb::URI` and
  /// `Thumb::MTime` must match, and `Thumb::Size` too when it is there.
  static func describes(_ chunks: PNGTextChunks, _ original: ThumbnailOriginal) -> Bool {
    guard chunks.text["Thumb::URI"] == original.name.uri,
      let modified = chunks.text["Thumb::MTime"].flatMap(ThumbnailText.number),
      modified == original.modified
    else { return false }
    if let size = chunks.text["Thumb::Size"] {
      return ThumbnailText.number(size) == original.byteCount
    }
    return true
  }
}
