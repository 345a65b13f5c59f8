import Foundation

/// The network stage: asks the data loader (conditionally when a stale entry has validators),
/// validates the response, stores cacheable bytes on disk and reuses the stored ones on 304.
extension PipelineCore {
  private struct Download: Sendable {
    var data: Data
    var bytesReceived: Int
    var notModified: Bool
    /// Where the bytes came from: the network, the disk cache (a 304 confirmed them) or a
    /// local-folder file.
    var origin: ImageResponse.Origin
  }

  func startDownload(_ key: FetchKey, _ state: inout PipelineState) {
    guard let job = state.fetches[key], case .waitingForNetwork(let stale) = job.phase else {
      state.networkStage.finished()
      return
    }
    state.statistics.downloadsStarted += 1
    var request = DataRequest(
      url: job.url, timeout: configuration.requestTimeout,
      maxBytes: configuration.maxResponseBytes, priority: job.priority, headers: job.headers)
    if let stale, key.policy != .reload {
      request.ifNoneMatch = stale.metadata.etag
      request.ifModifiedSince = stale.metadata.lastModified
    }
    let id = job.id
    let task = Task {
      let result = await self.download(request, key: key, jobID: id, stale: stale)
      self.downloadFinished(key, id: id, result: result)
    }
    state.fetches[key]?.phase = .downloading(task)
  }

  private func download(
    _ request: DataRequest, key: FetchKey, jobID: UInt64, stale: DiskCacheEntry?
  ) async
    -> Result<Download, ImagePipelineError>
  {
    // Only a local-folder request gets this far with a file URL (`PipelineCore.validate`);
    // its bytes are read here, never by the data loader, and never cached on disk.
    if request.url.isFileURL {
      do {
        let data = try await LocalFileReader.contents(
          of: request.url, maxBytes: request.maxBytes,
          posterSide: key.posterSide ?? VideoPoster.side)
        return .success(
          Download(data: data, bytesReceived: data.count, notModified: false, origin: .localFile))
      } catch {
        return .failure(error)
      }
    }
    let response: DataResponse
    do {
      let loader = configuration.dataLoader
      let report: @Sendable (Int, Int?) -> Void = { completed, total in
        self.downloadProgressed(key, id: jobID, completed: completed, total: total)
      }
      // The modifier runs inside the deadline: a token refresh that hangs fails the load on
      // time, as a server that hangs does.
      response = try await TransferDeadline.run(
        seconds: configuration.downloadDeadline, clock: configuration.clock
      ) { () async throws(ImagePipelineError) in
        let request = try await self.modified(request)
        return try await loader.loadData(for: request, reportingProgress: report)
      }
    } catch {
      return .failure(error)
    }
    let disk = key.options.contains(.disableDiskCacheWrites) ? nil : configuration.diskCache
    let lifetime = configuration.defaultCacheLifetime
    if response.statusCode == 304, request.isConditional, let stale {
      if let disk {
        await BlockingIO.run {
          let now = disk.currentDate
          if let metadata = stale.metadata.revalidated(
            by: response, at: now, defaultLifetime: lifetime)
          {
            disk.store(stale.data, metadata: metadata, for: key.url)
          } else {
            disk.removeEntry(for: key.url)
          }
        }
      }
      return .success(
        Download(data: stale.data, bytesReceived: 0, notModified: true, origin: .diskCache))
    }
    do throws(ImagePipelineError) {
      try ResponseValidator.validate(response, maxBytes: request.maxBytes)
    } catch {
      return .failure(error)
    }
    if let disk {
      await BlockingIO.run {
        let now = disk.currentDate
        if let metadata = HTTPCacheMetadata.from(response, at: now, defaultLifetime: lifetime) {
          disk.store(response.data, metadata: metadata, for: key.url)
        } else {
          disk.removeEntry(for: key.url)  // no-store: an older copy must not outlive it
        }
      }
    }
    return .success(
      Download(
        data: response.data, bytesReceived: response.data.count, notModified: false,
        origin: .network))
  }

  /// `request` as the configuration's request modifier makes it, held to the same rules as
  /// the request it came from: still an http(s) URL (a modifier can never reach a file) and
  /// header fields that are HTTP's.
  private func modified(_ request: DataRequest) async throws(ImagePipelineError) -> DataRequest {
    guard let modifier = configuration.requestModifier else { return request }
    var changed = try await modifier(request)
    let scheme = changed.url.scheme?.lowercased()
    guard scheme == "http" || scheme == "https", changed.url.host?.isEmpty == false else {
      throw .schemeNotAllowed(url: changed.url.absoluteString, source: .network)
    }
    if let problem = HTTPHeaderFields.problem(with: changed.headers) {
      throw .invalidRequest(problem)
    }
    // What the pipeline decided stays: the deadline, the byte limit, the validators.
    changed.timeout = request.timeout
    changed.maxBytes = request.maxBytes
    changed.ifNoneMatch = request.ifNoneMatch
    changed.ifModifiedSince = request.ifModifiedSince
    return changed
  }

  /// Passes a loader's progress report to every task waiting for this download. Reports are
  /// clamped (a loader's numbers come from the server): never negative, and no total below
  /// what has arrived.
  private func downloadProgressed(_ key: FetchKey, id: UInt64, completed: Int, total: Int?) {
    let handlers = state.withLock { progressHandlers(of: key, id: id, $0) }
    guard !handlers.isEmpty else { return }
    let received = max(0, completed)
    let progress = ImageTask.Progress(
      completed: received, total: total.map { max($0, received) })
    for handler in handlers { handler(progress) }
  }

  private func downloadFinished(
    _ key: FetchKey, id: UInt64, result: Result<Download, ImagePipelineError>
  ) {
    update { state, deliveries in
      state.networkStage.finished()
      let current = state.fetches[key]?.id == id
      switch result {
      case .success(let download):
        state.statistics.downloadsFinished += 1
        state.statistics.bytesDownloaded += download.bytesReceived
        if download.notModified { state.statistics.notModifiedResponses += 1 }
        if current {
          fetchSucceeded(key, data: download.data, origin: download.origin, &state, &deliveries)
        }
      case .failure(let error):
        // A cancelled download was counted when it was cancelled.
        guard current else { return }
        state.statistics.downloadsFailed += 1
        fetchFailed(key, error, &state, &deliveries)
      }
    }
  }
}
