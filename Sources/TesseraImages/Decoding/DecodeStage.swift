import Foundation

/// The decode stage: runs `ImageDecoder` on its own threads (at most `maxConcurrentDecodes`
/// at once), stores the bitmap in the memory cache and completes every subscriber.
extension PipelineCore {
  func startDecode(_ key: DecodeKey, _ state: inout PipelineState) {
    guard let job = state.decodes[key], case .waitingForDecoder(let data, let origin) = job.phase
    else {
      state.decodeStage.finished()
      return
    }
    state.decodes[key]?.phase = .decoding
    let id = job.id
    let request = job.request
    let decoder = self.decoder
    let plan = job.thumbnail
    DispatchQueue.global(qos: .userInitiated).async {
      self.decodeWillRun.withLock { $0 }?()
      let clock = ContinuousClock()
      let start = clock.now
      var thumbnailWritten = false
      let result = Result { () throws(ImagePipelineError) -> Image in
        if case .write(let original, let sizes)? = plan, origin == .localFile,
          let cache = self.configuration.thumbnailCache
        {
          let made = try self.decodeWritingThumbnail(
            data, request: request, original: original, sizes: sizes, cache: cache)
          thumbnailWritten = made.written
          return made.image
        }
        if case .read(let originalSize)? = plan, origin == .thumbnailCache {
          return try decoder.decodeThumbnail(data, for: request, originalSize: originalSize)
        }
        return try decoder.decode(
          data, targetSize: request.targetSize, contentMode: request.contentMode,
          source: request.source)
      }.flatMap { image in Self.processed(image, by: request.processors) }
      let elapsed = clock.now - start
      if case .failure(let error) = result, Self.condemnsTheBytes(error),
        case .write(let original, _)? = plan, origin == .localFile
      {
        self.recordThumbnailFailure(of: original, error)
      }
      if thumbnailWritten { self.state.withLock { $0.statistics.thumbnailsWritten += 1 } }
      if case .success(let image) = result, !key.options.contains(.disableMemoryCacheWrites) {
        self.configuration.memoryCache?.store(image, for: key.image)
      } else if case .failure(let error) = result, Self.condemnsTheBytes(error),
        !request.url.isFileURL, request.data == nil
      {
        // Bytes that do not decode (broken, or a format this source may not show) are no use
        // on disk: drop them, so a fixed image is downloaded again and a refused one is not
        // kept. (Stored broken bytes passed the checksum: they were broken when stored.)
        self.configuration.diskCache?.removeEntry(for: request.diskKey)
      }
      self.decodeFinished(key, id: id, result: result, origin: origin, elapsed: elapsed)
    }
  }

  /// `image` after each of `processors` in turn; the first failure stops them.
  static func processed(
    _ image: Image, by processors: [ImageProcessor]
  ) -> Result<Image, ImagePipelineError> {
    var image = image
    for step in processors {
      do throws(ImagePipelineError) {
        image = try step.process(image)
      } catch {
        return .failure(error)
      }
    }
    return .success(image)
  }

  /// Whether a decode failure is about the bytes themselves (rather than the size asked for).
  static func condemnsTheBytes(_ error: ImagePipelineError) -> Bool {
    switch error {
    case .decodingFailed, .unsupportedFormat, .tooLarge(.pixels), .tooLarge(.side): true
    default: false
    }
  }

  private func decodeFinished(
    _ key: DecodeKey, id: UInt64, result: Result<Image, ImagePipelineError>,
    origin: ImageResponse.Origin, elapsed: Duration
  ) {
    update { state, deliveries in
      state.decodeStage.finished()
      switch result {
      case .success:
        state.statistics.decodes += 1
        state.statistics.decodeTime += elapsed
      case .failure:
        state.statistics.decodeFailures += 1
      }
      guard let job = state.decodes[key], job.id == id else { return }
      state.decodes.removeValue(forKey: key)
      let outcome: TaskOutcome
      switch result {
      case .success(let image): outcome = .image(image, origin)
      case .failure(let error):
        log(error, url: job.request.url)
        outcome = .failure(error)
      }
      for subscriber in job.subscribers.keys { complete(subscriber, outcome, &state, &deliveries) }
    }
  }
}
