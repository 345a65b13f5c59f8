import Foundation
import TesseraUtilities

/// The coalescing stage and the state machine behind `ImagePipeline`.
///
/// Tasks subscribe to a decode job (one per distinct image and size); decode jobs subscribe to
/// a fetch job (one per URL). Work is shared by every subscriber and cancelled only when the
/// last one leaves. Each stage (disk read, network, decode) has a concurrency limit and a
/// priority line in front of it; a job's priority is its most urgent subscriber's and changes
/// while it waits. All bookkeeping is O(subscribers of the job touched) under one lock; the
/// work itself (I/O, decoding) runs outside it.
final class PipelineCore: Sendable {
  let configuration: ImagePipeline.Configuration
  let decoder: ImageDecoder
  let state: Locked<PipelineState>
  /// Called on the decode's thread as a decode starts running; tests hold decodes with it.
  let decodeWillRun = Locked<(@Sendable () -> Void)?>(nil)

  init(configuration: ImagePipeline.Configuration) {
    self.configuration = configuration
    self.decoder = ImageDecoder(maxPixels: configuration.maxPixels)
    self.state = Locked(
      PipelineState(
        diskStage: StageQueue(limit: configuration.maxConcurrentDiskReads),
        networkStage: StageQueue(limit: configuration.maxConcurrentDownloads),
        decodeStage: StageQueue(limit: configuration.maxConcurrentDecodes),
        thumbnailStage: StageQueue(limit: configuration.maxConcurrentDiskReads)))
  }

  var statistics: PipelineStatistics { state.withLock { $0.statistics } }

  /// Runs `body` under the lock, then delivers the completions it collected.
  func update<Result>(_ body: (inout PipelineState, inout Deliveries) -> Result) -> Result {
    var deliveries = Deliveries()
    let result = state.withLock { state in
      let result = body(&state, &deliveries)
      startWork(&state)
      return result
    }
    deliveries.run()
    return result
  }

  // MARK: Subscribing

  /// A fresh task id, for a caller that must create its handle before the work starts (so a
  /// completion that comes back at once already finds it).
  func reserveTaskID() -> TaskID { state.withLock { $0.makeID() } }

  /// Starts (or joins) the work for `request` and returns the task's id. `deliver` is called
  /// exactly once, from any thread.
  func startImageTask(
    _ request: ImageRequest, priority: ImageRequest.Priority,
    deliver: @escaping @Sendable (TaskOutcome) -> Void
  ) -> TaskID {
    let id = reserveTaskID()
    startImageTask(request, id: id, priority: priority, deliver: deliver)
    return id
  }

  /// Starts (or joins) the work for `request` under an id from `reserveTaskID()`. `deliver`
  /// is called exactly once, from any thread, possibly before this returns; `progress` as the
  /// download (shared or not) receives bytes.
  func startImageTask(
    _ request: ImageRequest, id: TaskID, priority: ImageRequest.Priority,
    progress: (@Sendable (ImageTask.Progress) -> Void)? = nil,
    deliver: @escaping @Sendable (TaskOutcome) -> Void
  ) {
    update { state, deliveries in
      state.statistics.tasksStarted += 1
      let subscriber = Subscriber(
        priority: priority, target: .decode(decodeKey(for: request)), progress: progress,
        deliver: deliver)
      if let error = state.shutDown ? .shutDown : Self.validate(request) {
        state.statistics.tasksCompleted += 1
        log(error, url: request.url)
        deliveries.add(subscriber, .failure(error))
        return
      }
      let key = decodeKey(for: request)
      // The caller looked at the memory cache before this lock; a decode of the same image
      // may have finished since. Its image is stored before its job goes (`DecodeStage`), so
      // with no job the cache has it or never will from that decode: one decode, not two.
      if state.decodes[key] == nil, request.readsMemoryCache,
        let cache = configuration.memoryCache, cache.contains(request.memoryCacheKey),
        let image = cache.image(for: request.memoryCacheKey)
      {
        state.statistics.tasksCompleted += 1
        deliveries.add(subscriber, .image(image, .memoryCache))
        return
      }
      state.subscribers[id] = subscriber
      if state.decodes[key] != nil {
        state.statistics.coalescedJoins += 1
        state.decodes[key]?.subscribers[id] = priority
        reprioritize(decode: key, &state)
        return
      }
      let fetchKey = FetchKey(request)
      state.decodes[key] = DecodeJob(
        id: state.makeID(), request: request, fetch: fetchKey, subscribers: [id: priority])
      if let data = request.data {  // the caller's bytes: nothing to fetch
        state.decodes[key]?.phase = .waitingForDecoder(data, origin: .providedData)
        state.decodeStage.submit(key, priority: priority)
      } else if usesThumbnails(request) {
        state.decodes[key]?.phase = .waitingForThumbnail
        state.thumbnailStage.submit(key, priority: priority)
      } else {
        joinFetch(of: key, &state, &deliveries)
      }
    }
  }

  /// Subscribes a decode job to the download of its URL, starting one if none is running.
  func joinFetch(of key: DecodeKey, _ state: inout PipelineState, _ deliveries: inout Deliveries) {
    guard let job = state.decodes[key] else { return }
    // Bytes are coming that libvips will decode: it loads (~40 ms, once) while they come.
    // Not for a prefetch: on a second launch the screen's tiles come from thumbnails without
    // libvips, and loading it for the next screen would take a core from them (a decode
    // loads it anyway when it runs). Nor for a JPEG by its name, which libjpeg-turbo decodes.
    if job.priority >= .normal, !ImageDecoder.isJPEGByName(key.image.url) {
      ImageDecoder.startLibvips
    }
    state.decodes[key]?.phase = .waitingForData
    let fetchKey = job.fetch
    if state.fetches[fetchKey] != nil {
      state.statistics.sharedDownloads += 1
      state.fetches[fetchKey]?.decodes[key] = job.priority
      reprioritize(fetch: fetchKey, &state)
    } else {
      beginFetch(
        fetchKey, request: job.request, decode: (key, job.priority), &state, &deliveries)
    }
  }

  /// Starts (or joins) a download of `request.url` into the disk cache, without decoding.
  func startDataTask(
    _ request: ImageRequest, priority: ImageRequest.Priority,
    deliver: @escaping @Sendable (TaskOutcome) -> Void
  ) -> TaskID {
    update { state, deliveries in
      let id = state.makeID()
      state.statistics.tasksStarted += 1
      let fetchKey = FetchKey(request)
      let subscriber = Subscriber(priority: priority, target: .fetch(fetchKey), deliver: deliver)
      if let error = state.shutDown ? .shutDown : Self.validate(request) {
        state.statistics.tasksCompleted += 1
        log(error, url: request.url)
        deliveries.add(subscriber, .failure(error))
        return id
      }
      if request.data != nil {  // the caller holds the bytes: nothing to download
        state.statistics.tasksCompleted += 1
        deliveries.add(subscriber, .dataReady)
        return id
      }
      state.subscribers[id] = subscriber
      if state.fetches[fetchKey] != nil {
        state.statistics.coalescedJoins += 1
        state.fetches[fetchKey]?.dataTasks[id] = priority
        reprioritize(fetch: fetchKey, &state)
      } else {
        beginFetch(fetchKey, request: request, dataTask: (id, priority), &state, &deliveries)
      }
      return id
    }
  }

  /// Cancels one task: it is told `.cancelled` at once; the shared work stops only if no other
  /// subscriber needs it. A task that already completed is left alone.
  func cancel(_ id: TaskID, reason: ImagePipelineError = .cancelled) {
    cancel([id], reason: reason)
  }

  /// Cancels every task in `ids` under one lock: a download cancelled early in the list frees
  /// its slot only after the whole list is withdrawn, so no queued task of the same list
  /// starts in between (stopping every prefetch must not start the ones still queued).
  func cancel(_ ids: [TaskID], reason: ImagePipelineError = .cancelled) {
    update { state, deliveries in
      for id in ids { cancel(id, reason: reason, &state, &deliveries) }
    }
  }

  private func cancel(
    _ id: TaskID, reason: ImagePipelineError, _ state: inout PipelineState,
    _ deliveries: inout Deliveries
  ) {
    guard let subscriber = state.subscribers.removeValue(forKey: id) else { return }
    state.statistics.tasksCompleted += 1
    deliveries.add(subscriber, .failure(reason))
    switch subscriber.target {
    case .decode(let key):
      state.decodes[key]?.subscribers.removeValue(forKey: id)
      if state.decodes[key]?.subscribers.isEmpty == true {
        abandon(decode: key, &state)
      } else {
        reprioritize(decode: key, &state)
      }
    case .fetch(let key):
      state.fetches[key]?.dataTasks.removeValue(forKey: id)
      if state.fetches[key]?.isUnwanted == true {
        abandon(fetch: key, &state)
      } else {
        reprioritize(fetch: key, &state)
      }
    }
  }

  /// Fails every task with `.shutDown` (their shared work stops with them) and every later
  /// one at once.
  func shutDown() {
    let ids = state.withLock { state in
      state.shutDown = true
      return Array(state.subscribers.keys)
    }
    cancel(ids, reason: .shutDown)
  }

  /// Changes a waiting or running task's priority; the jobs it subscribes to move in their
  /// lines accordingly.
  func setPriority(_ priority: ImageRequest.Priority, of id: TaskID) {
    update { state, _ in
      guard var subscriber = state.subscribers[id], subscriber.priority != priority else { return }
      subscriber.priority = priority
      state.subscribers[id] = subscriber
      switch subscriber.target {
      case .decode(let key):
        state.decodes[key]?.subscribers[id] = priority
        reprioritize(decode: key, &state)
      case .fetch(let key):
        state.fetches[key]?.dataTasks[id] = priority
        reprioritize(fetch: key, &state)
      }
    }
  }

  // MARK: Finishing

  /// Hands the fetched bytes to every decode waiting for them and completes data tasks.
  func fetchSucceeded(
    _ key: FetchKey, data: Data, origin: ImageResponse.Origin, _ state: inout PipelineState,
    _ deliveries: inout Deliveries
  ) {
    guard let job = state.fetches.removeValue(forKey: key) else { return }
    for (decodeKey, priority) in job.decodes {
      state.decodes[decodeKey]?.phase = .waitingForDecoder(data, origin: origin)
      state.decodeStage.submit(decodeKey, priority: priority)
    }
    for id in job.dataTasks.keys { complete(id, .dataReady, &state, &deliveries) }
  }

  /// Fails every subscriber of a fetch, through its decodes.
  func fetchFailed(
    _ key: FetchKey, _ error: ImagePipelineError, _ state: inout PipelineState,
    _ deliveries: inout Deliveries
  ) {
    guard let job = state.fetches.removeValue(forKey: key) else { return }
    log(error, url: job.url)
    for decodeKey in job.decodes.keys {
      guard let decode = state.decodes.removeValue(forKey: decodeKey) else { continue }
      for id in decode.subscribers.keys { complete(id, .failure(error), &state, &deliveries) }
    }
    for id in job.dataTasks.keys { complete(id, .failure(error), &state, &deliveries) }
  }

  func complete(
    _ id: TaskID, _ outcome: TaskOutcome, _ state: inout PipelineState,
    _ deliveries: inout Deliveries
  ) {
    guard let subscriber = state.subscribers.removeValue(forKey: id) else { return }
    state.statistics.tasksCompleted += 1
    deliveries.add(subscriber, outcome)
  }

  /// The progress handlers of everyone waiting for fetch `key` (job `id`), through its
  /// decodes. O(subscribers of the fetch).
  func progressHandlers(
    of key: FetchKey, id: UInt64, _ state: PipelineState
  ) -> [@Sendable (ImageTask.Progress) -> Void] {
    guard let job = state.fetches[key], job.id == id else { return [] }
    var handlers: [@Sendable (ImageTask.Progress) -> Void] = []
    for decodeKey in job.decodes.keys {
      guard let decode = state.decodes[decodeKey] else { continue }
      for taskID in decode.subscribers.keys {
        if let handler = state.subscribers[taskID]?.progress { handlers.append(handler) }
      }
    }
    return handlers
  }

  // MARK: Internals

  private func decodeKey(for request: ImageRequest) -> DecodeKey { DecodeKey(request) }

  /// Schemes by source: a network request may only use http(s) with a host, a local-folder
  /// request only a file URL with a path on this machine. Anything else fails before any I/O:
  /// a network request's `file:` URL is never opened.
  static func validate(_ request: ImageRequest) -> ImagePipelineError? {
    if request.data != nil { return nil }  // decoded, never fetched: no URL is opened
    if let problem = HTTPHeaderFields.problem(with: request.headers) {
      return .invalidRequest(problem)
    }
    let url = request.url
    let scheme = url.scheme?.lowercased()
    let isHTTP = scheme == "http" || scheme == "https"
    let isFile = scheme == "file"
    switch request.source {
    case .network:
      if isFile { return .schemeNotAllowed(url: url.absoluteString, source: .network) }
      if isHTTP, let host = url.host, !host.isEmpty { return nil }
    case .localFolder:
      if isHTTP { return .schemeNotAllowed(url: url.absoluteString, source: .localFolder) }
      let host = url.host ?? ""
      if isFile, host.isEmpty || host == "localhost", !url.path.isEmpty { return nil }
    }
    return .invalidURL(url.absoluteString)
  }

  private func beginFetch(
    _ key: FetchKey, request: ImageRequest, decode: (DecodeKey, ImageRequest.Priority)? = nil,
    dataTask: (TaskID, ImageRequest.Priority)? = nil, _ state: inout PipelineState,
    _ deliveries: inout Deliveries
  ) {
    let url = request.url
    let readsDisk =
      configuration.diskCache != nil && key.policy != .reload && !url.isFileURL
      && !key.options.contains(.disableDiskCacheReads)
    var job = FetchJob(
      id: state.makeID(), url: url, headers: request.headers, policy: key.policy,
      phase: readsDisk ? .waitingForDisk : .waitingForNetwork(stale: nil))
    if let (decodeKey, priority) = decode { job.decodes[decodeKey] = priority }
    if let (id, priority) = dataTask { job.dataTasks[id] = priority }
    state.fetches[key] = job
    if readsDisk {
      state.diskStage.submit(key, priority: job.priority)
    } else if key.policy == .onlyFromCache && !url.isFileURL {
      fetchFailed(key, .notInCache, &state, &deliveries)
    } else {
      state.networkStage.submit(key, priority: job.priority)
    }
  }

  private func reprioritize(decode key: DecodeKey, _ state: inout PipelineState) {
    guard let job = state.decodes[key] else { return }
    switch job.phase {
    case .waitingForThumbnail:
      state.thumbnailStage.update(key, priority: job.priority)
    case .waitingForData:
      state.fetches[job.fetch]?.decodes[key] = job.priority
      reprioritize(fetch: job.fetch, &state)
    case .waitingForDecoder:
      state.decodeStage.update(key, priority: job.priority)
    case .decoding, .lookingUpThumbnail:
      break
    }
  }

  private func reprioritize(fetch key: FetchKey, _ state: inout PipelineState) {
    guard let job = state.fetches[key] else { return }
    switch job.phase {
    case .waitingForDisk: state.diskStage.update(key, priority: job.priority)
    case .waitingForNetwork: state.networkStage.update(key, priority: job.priority)
    case .readingDisk, .downloading: break
    }
  }

  /// Drops a decode nobody wants: out of its line, or off its fetch (which goes too if it
  /// is left with no subscriber). A decode already running finishes into the memory cache.
  private func abandon(decode key: DecodeKey, _ state: inout PipelineState) {
    guard let job = state.decodes[key] else { return }
    // A decode already running cannot be stopped: it stays joinable until it ends, so the
    // same image asked for again meanwhile (a photo that moved to another cell of the screen
    // when its date was read) waits for it instead of decoding the original a second time.
    // Its image goes to the memory cache either way.
    if case .decoding = job.phase { return }
    state.decodes.removeValue(forKey: key)
    switch job.phase {
    case .waitingForThumbnail:
      state.thumbnailStage.withdraw(key)
    case .lookingUpThumbnail:
      break  // its completion finds no job and only frees the slot
    case .waitingForData:
      state.fetches[job.fetch]?.decodes.removeValue(forKey: key)
      if state.fetches[job.fetch]?.isUnwanted == true {
        abandon(fetch: job.fetch, &state)
      } else {
        reprioritize(fetch: job.fetch, &state)
      }
    case .waitingForDecoder:
      state.decodeStage.withdraw(key)
    case .decoding:
      break  // kept above
    }
  }

  private func abandon(fetch key: FetchKey, _ state: inout PipelineState) {
    guard let job = state.fetches.removeValue(forKey: key) else { return }
    switch job.phase {
    case .waitingForDisk: state.diskStage.withdraw(key)
    case .waitingForNetwork: state.networkStage.withdraw(key)
    case .readingDisk: break  // its completion finds no job and only frees the slot
    case .downloading(let task):
      task.cancel()
      state.statistics.downloadsCancelled += 1
    }
  }

  /// Fills every free slot of every stage with the most urgent waiting job.
  ///
  /// Encoded images waiting for a decoder, plus downloads that will add to them, stay under
  /// `decodeBacklogLimit`: when bytes arrive faster than they decode (a fast network, file
  /// URLs), they would otherwise pile up in memory without bound. With an empty backlog
  /// every download slot is usable; each finished decode reopens one.
  private func startWork(_ state: inout PipelineState) {
    while let key = state.decodeStage.nextToStart() { startDecode(key, &state) }
    while state.decodeStage.waiting.count < decodeBacklogLimit,
      let key = state.thumbnailStage.nextToStart()
    {
      startThumbnailLookup(key, &state)
    }
    while state.decodeStage.waiting.count < decodeBacklogLimit,
      let key = state.diskStage.nextToStart()
    {
      startDiskRead(key, &state)
    }
    while state.decodeStage.waiting.count + state.networkStage.running < decodeBacklogLimit,
      let key = state.networkStage.nextToStart()
    {
      startDownload(key, &state)
    }
  }

  /// Encoded images allowed to wait for a decoder (downloads in flight included).
  var decodeBacklogLimit: Int {
    max(configuration.maxConcurrentDownloads, 2 * configuration.maxConcurrentDecodes)
  }
}
