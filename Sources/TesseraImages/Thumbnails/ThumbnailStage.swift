import CVipsShim
import Foundation

/// What a decode job does with the thumbnail folders.
enum ThumbnailPlan: Sendable {
  /// The original is decoded: write a thumbnail of the first of `sizes` that covers the box.
  case write(ThumbnailOriginal, sizes: [ThumbnailSize])
  /// A thumbnail is decoded: the original's size, when the thumbnail states it.
  case read(originalSize: PixelSize?)
}

/// The thumbnail stage, between a local-folder request and the read of its original: the
/// freedesktop.org folders are looked in (at most `maxConcurrentDiskReads` lookups at once),
/// a thumbnail that covers the box goes straight to the decoder, and a miss goes on to the
/// original with a plan to write one.
extension PipelineCore {
  /// Whether `request` goes through the thumbnail folders: a local-folder file decoded into
  /// a box of at most 1,024 px, when the pipeline has a thumbnail cache and the request may
  /// read caches.
  func usesThumbnails(_ request: ImageRequest) -> Bool {
    guard configuration.thumbnailCache != nil, request.source == .localFolder,
      request.cachePolicy != .reload, request.url.isFileURL, let target = request.targetSize
    else { return false }
    return !ThumbnailSize.candidates(for: target).isEmpty
  }

  func startThumbnailLookup(_ key: DecodeKey, _ state: inout PipelineState) {
    guard let job = state.decodes[key], case .waitingForThumbnail = job.phase,
      let cache = configuration.thumbnailCache
    else {
      state.thumbnailStage.finished()
      return
    }
    state.decodes[key]?.phase = .lookingUpThumbnail
    let id = job.id
    let request = job.request
    DispatchQueue.global(qos: .userInitiated).async {
      let lookup = cache.lookUp(
        path: request.url.path, target: request.targetSize, contentMode: request.contentMode)
      self.thumbnailLookupFinished(key, id: id, lookup)
    }
  }

  private func thumbnailLookupFinished(_ key: DecodeKey, id: UInt64, _ lookup: ThumbnailLookup) {
    update { state, deliveries in
      state.thumbnailStage.finished()
      guard let job = state.decodes[key], job.id == id else { return }
      switch lookup {
      case .hit(let data, let originalSize):
        state.statistics.thumbnailHits += 1
        state.decodes[key]?.thumbnail = .read(originalSize: originalSize)
        state.decodes[key]?.phase = .waitingForDecoder(data, origin: .thumbnailCache)
        state.decodeStage.submit(key, priority: job.priority)
      case .failedBefore(let original, let reason):
        state.decodes.removeValue(forKey: key)
        let why = reason ?? "it did not decode"
        let error = ImagePipelineError.decodingFailed(
          state.failuresRecordedThisRun.contains(original.path)
            ? why : "\(why) (earlier; the file has not changed since)")
        log(error, url: job.request.url)
        for id in job.subscribers.keys { complete(id, .failure(error), &state, &deliveries) }
      case .miss(let original, let sizes):
        state.decodes[key]?.thumbnail = .write(original, sizes: sizes)
        joinFetch(of: key, &state, &deliveries)
      case .notApplicable:
        joinFetch(of: key, &state, &deliveries)
      }
    }
  }

  /// Stores a thumbnail a decode made (`DecodeOutcome.thumbnail`) in the folders; one that
  /// cannot be written is left out (the tile was made already) and logged.
  func storeThumbnail(_ made: MadeThumbnail) {
    guard let cache = configuration.thumbnailCache else { return }
    do {
      try cache.store(made.png, size: made.size, for: made.original)
      state.withLock { $0.statistics.thumbnailsWritten += 1 }
    } catch {
      configuration.logger.debug("thumbnail not written", metadata: ["reason": "\(error)"])
    }
  }

  /// Records in the failure folder that `original` does not decode, with the reason.
  func recordThumbnailFailure(of original: ThumbnailOriginal, _ error: ImagePipelineError) {
    // The reason alone: read back, it is wrapped as a decoding failure again.
    var reason = error.description
    if case .decodingFailed(let detail) = error { reason = detail }
    guard let cache = configuration.thumbnailCache,
      let png = ThumbnailPNG.failure(for: original, reason: reason)
    else { return }
    do {
      try cache.recordFailure(of: original, png: png)
      state.withLock { _ = $0.failuresRecordedThisRun.insert(original.path) }
    } catch {
      configuration.logger.debug("thumbnail failure not recorded", metadata: ["reason": "\(error)"])
    }
  }
}

/// A thumbnail a decode made of a local original, encoded and ready for the folders.
struct MadeThumbnail: Sendable {
  var png: Data
  var size: ThumbnailSize
  var original: ThumbnailOriginal
}

extension ImageDecoder {
  /// Decodes a local original into a thumbnail of the first of `sizes` that covers the
  /// request's box (shrink-on-load: one decode of the original), encodes it for the folders,
  /// and makes the request's image from the thumbnail, so the tile and the thumbnail a later
  /// launch reads agree. When no size covers the box (a long panorama in a square tile), or
  /// the thumbnail cannot be encoded, the original is decoded for the box as usual, and no
  /// thumbnail is made.
  func decodeMakingThumbnail(
    _ data: Data, request: ImageRequest, original: ThumbnailOriginal, sizes: [ThumbnailSize]
  ) throws(ImagePipelineError) -> (image: Image, thumbnail: MadeThumbnail?) {
    let originalSize = try header(of: data, source: request.source)
    if let target = request.targetSize {
      for size in sizes {
        let box = PixelSize(width: size.side, height: size.side)
        let thumbnail = try decode(
          data, targetSize: box, contentMode: .aspectFit, source: request.source)
        guard
          ThumbnailSize.covers(
            thumbnail.size, original: originalSize, target: target,
            contentMode: request.contentMode)
        else { continue }
        let text = ThumbnailPNG.text(
          for: original, originalSize: originalSize, mimeType: ThumbnailPNG.mimeType(of: data))
        guard let png = ThumbnailPNG.encode(thumbnail, text: text) else { break }
        // The tile is made from the thumbnail's pixels as a later launch makes it from the
        // PNG (which holds the same pixels): no second decode.
        let image = try Image(
          width: thumbnail.width, height: thumbnail.height, pixels: thumbnail.pixels,
          originalSize: originalSize
        ).fitted(into: target, contentMode: request.contentMode)
        return (image, MadeThumbnail(png: png, size: size, original: original))
      }
    }
    let image = try decode(
      data, targetSize: request.targetSize, contentMode: request.contentMode,
      source: request.source)
    return (image, nil)
  }

  /// Decodes a thumbnail from the shared folders into the request's box: PNG only, by libpng
  /// (``decodeSharedThumbnail(_:)``; the folders are written by other programs), and the
  /// original's size when it is known.
  func decodeThumbnail(
    _ png: Data, for request: ImageRequest, originalSize: PixelSize?
  ) throws(ImagePipelineError) -> Image {
    if let target = request.targetSize { try Self.requirePositive(target) }
    let image = try decodeSharedThumbnail(png).fitted(
      into: request.targetSize, contentMode: request.contentMode)
    guard let originalSize else { return image }
    return try Image(
      width: image.width, height: image.height, pixels: image.pixels, originalSize: originalSize)
  }
}
