import Foundation

/// What one decode made: its image (or why not), and what it hands forward to the stages that
/// own the rest — the thumbnail stage stores a thumbnail made on the way or records an
/// original that does not decode, the disk stage drops bytes that do not decode. The decode
/// itself touches no cache.
struct DecodeOutcome: Sendable {
  var result: Result<Image, ImagePipelineError>
  var elapsed: Duration
  /// A thumbnail of a local original, encoded, for the thumbnail stage to store.
  var thumbnail: MadeThumbnail?
  /// A local original that does not decode, for the thumbnail stage to record.
  var undecodableOriginal: ThumbnailOriginal?
  /// The disk-cache entry whose bytes do not decode, for the disk stage to drop.
  var undecodableDiskEntry: String?
}

/// The decode stage: runs `ImageDecoder` on its own threads (at most `maxConcurrentDecodes`
/// at once), hands what the decode made to the stages that own it, stores the bitmap in the
/// memory cache and completes every subscriber.
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
    let makesThumbnails = configuration.thumbnailCache != nil
    DispatchQueue.global(qos: .userInitiated).async {
      self.decodeWillRun.withLock { $0 }?()
      let outcome = Self.decode(
        data, origin: origin, request: request, plan: plan, decoder: decoder,
        makesThumbnails: makesThumbnails)
      if let made = outcome.thumbnail { self.storeThumbnail(made) }
      if let original = outcome.undecodableOriginal, case .failure(let error) = outcome.result {
        self.recordThumbnailFailure(of: original, error)
      }
      if let entry = outcome.undecodableDiskEntry { self.dropUndecodableEntry(entry) }
      if case .success(let image) = outcome.result, !key.options.contains(.disableMemoryCacheWrites)
      {
        self.configuration.memoryCache?.store(image, for: key.image)
      }
      self.decodeFinished(key, id: id, outcome: outcome, origin: origin)
    }
  }

  /// Decodes `data` for `request` as its thumbnail `plan` says, and says what the other
  /// stages are to do with the result. Blocking and CPU-bound; touches no cache.
  static func decode(
    _ data: Data, origin: ImageResponse.Origin, request: ImageRequest, plan: ThumbnailPlan?,
    decoder: ImageDecoder, makesThumbnails: Bool
  ) -> DecodeOutcome {
    let clock = ContinuousClock()
    let start = clock.now
    var thumbnail: MadeThumbnail?
    var original: ThumbnailOriginal?
    if case .write(let local, _)? = plan, origin == .localFile { original = local }
    let result = Result { () throws(ImagePipelineError) -> Image in
      if case .write(let local, let sizes)? = plan, origin == .localFile, makesThumbnails {
        let made = try decoder.decodeMakingThumbnail(
          data, request: request, original: local, sizes: sizes)
        thumbnail = made.thumbnail
        return made.image
      }
      if case .read(let originalSize)? = plan, origin == .thumbnailCache {
        return try decoder.decodeThumbnail(data, for: request, originalSize: originalSize)
      }
      return try decoder.decode(
        data, targetSize: request.targetSize, contentMode: request.contentMode,
        source: request.source)
    }.flatMap { image in processed(image, by: request.processors) }
    var outcome = DecodeOutcome(result: result, elapsed: clock.now - start, thumbnail: thumbnail)
    if case .failure(let error) = result, condemnsTheBytes(error) {
      // Bytes that do not decode (broken, or a format this source may not show): a local
      // original is recorded as such; downloaded bytes are no use on disk.
      outcome.undecodableOriginal = original
      if !request.url.isFileURL, request.data == nil {
        outcome.undecodableDiskEntry = request.diskKey
      }
    }
    return outcome
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
    _ key: DecodeKey, id: UInt64, outcome: DecodeOutcome, origin: ImageResponse.Origin
  ) {
    update { state, deliveries in
      state.decodeStage.finished()
      switch outcome.result {
      case .success:
        state.statistics.decodes += 1
        state.statistics.decodeTime += outcome.elapsed
      case .failure:
        state.statistics.decodeFailures += 1
      }
      guard let job = state.decodes[key], job.id == id else { return }
      state.decodes.removeValue(forKey: key)
      let taskOutcome: TaskOutcome
      switch outcome.result {
      case .success(let image): taskOutcome = .image(image, origin)
      case .failure(let error):
        log(error, url: job.request.url)
        taskOutcome = .failure(error)
      }
      for subscriber in job.subscribers.keys {
        complete(subscriber, taskOutcome, &state, &deliveries)
      }
    }
  }
}
