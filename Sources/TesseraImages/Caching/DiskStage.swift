import Foundation

/// The disk stage: a fresh entry is used as it is; a stale one goes to the network stage to
/// be revalidated; `onlyFromCache` takes any entry and fails on a miss.
extension PipelineCore {
  func startDiskRead(_ key: FetchKey, _ state: inout PipelineState) {
    guard let job = state.fetches[key], let disk = configuration.diskCache else {
      state.diskStage.finished()
      return
    }
    state.fetches[key]?.phase = .readingDisk
    let id = job.id
    DispatchQueue.global(qos: .userInitiated).async {
      let entry = disk.entry(for: key.url)
      self.diskReadFinished(key, id: id, entry: entry, now: disk.currentDate)
    }
  }

  private func diskReadFinished(_ key: FetchKey, id: UInt64, entry: DiskCacheEntry?, now: Date) {
    update { state, deliveries in
      state.diskStage.finished()
      guard let job = state.fetches[key], job.id == id else { return }
      if let entry, key.policy == .onlyFromCache || entry.metadata.isFresh(at: now) {
        state.statistics.diskHits += 1
        fetchSucceeded(key, data: entry.data, origin: .diskCache, &state, &deliveries)
        return
      }
      state.statistics.diskMisses += 1
      if key.policy == .onlyFromCache {
        fetchFailed(key, .notInCache, &state, &deliveries)
        return
      }
      state.fetches[key]?.phase = .waitingForNetwork(stale: entry)
      state.networkStage.submit(key, priority: job.priority)
    }
  }

  /// Drops the entry whose bytes did not decode (`DecodeOutcome.undecodableDiskEntry`), so a
  /// fixed image is downloaded again and a refused one is not kept. (Stored broken bytes
  /// passed the checksum: they were broken when stored.)
  func dropUndecodableEntry(_ key: String) {
    configuration.diskCache?.removeEntry(for: key)
  }
}
