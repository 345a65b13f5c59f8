import Foundation
import TesseraUtilities

/// Culling: a rating, reject or colour label written into the photos' sidecars
/// (`SidecarWriter`), shown at once, kept in the facts store, and undone on request.
extension PhotoLibrary {
  /// What a change did, and what undoes it.
  public struct CullingOutcome: Sendable {
    /// Photos whose sidecars were all written.
    public var photosChanged = 0
    /// Why a sidecar was not written, each once.
    public var failures: [String] = []
    /// Undoes what was written (``undo(_:)``).
    public var undo = CullingUndo()
  }

  /// The sidecars a change wrote and their two properties before it.
  public struct CullingUndo: Sendable {
    struct Step: Sendable {
      var photo: Int
      var written: SidecarWriter.Written
    }
    var steps: [Step] = []
    public var isEmpty: Bool { steps.isEmpty }
    /// Photos the change touched.
    public var photoCount: Int { Set(steps.map(\.photo)).count }
  }

  /// Writes `change` into the sidecars of `photos` (lasting numbers), off the main actor;
  /// each photo shows what its sidecar then says (else what its file says: a new sidecar
  /// starts with that, `SidecarWriter.apply`).
  /// - Complexity: O(photos) sidecar writes, each O(its bytes).
  public func cull(_ change: CullingChange, photos: [Int]) async -> CullingOutcome {
    let count = catalog.count
    let files = photos.filter { (0..<count).contains($0) }.map { ($0, catalog.photo(at: $0).file) }
    let reader = headerReader
    let results = await BlockingWork.run {
      files.map { index, file in
        var steps: [CullingUndo.Step] = []
        var failure: String?
        let fromFile = reader.header(ofFileAt: file.path)?.culling
        for target in SidecarWriter.targets(for: file) {
          do throws(SidecarWriter.Failure) {
            let written = try SidecarWriter.apply(change, toSidecarAt: target, fromFile: fromFile)
            steps.append(CullingUndo.Step(photo: index, written: written))
          } catch {
            failure = failure ?? error.description
          }
        }
        return (index, steps, failure, SidecarWriter.current(for: file), fromFile)
      }
    }
    var outcome = CullingOutcome()
    for (index, steps, failure, current, fromFile) in results {
      outcome.undo.steps += steps
      if let failure {
        if !outcome.failures.contains(failure) { outcome.failures.append(failure) }
      } else {
        outcome.photosChanged += 1
      }
      catalog.setCulling(current?.culling ?? fromFile, sidecar: current?.sidecar, at: index)
    }
    sidecarsChanged(of: results.map(\.0))
    return outcome
  }

  /// Puts the two properties (or the tags) back as they were before the change `undo` came
  /// from; a sidecar that change made is removed (unless another tool wrote it since).
  public func undo(_ undo: CullingUndo) async -> CullingOutcome {
    let count = catalog.count
    let steps = undo.steps.filter { (0..<count).contains($0.photo) }
    let files = Dictionary(steps.map { ($0.photo, catalog.photo(at: $0.photo).file) }) { a, _ in a }
    let reader = headerReader
    let results = await BlockingWork.run {
      var failures: [String] = []
      // Last written first, so a sidecar written twice ends as it was before the first.
      for step in steps.reversed() {
        let written = step.written
        do throws(SidecarWriter.Failure) {
          if written.created {
            try SidecarWriter.remove(written.path, ifStill: written.sidecar)
          } else if let tags = written.tagsBefore {
            _ = try SidecarWriter.apply(.restoreTags(tags), toSidecarAt: written.path)
          } else {
            _ = try SidecarWriter.apply(
              .restore(rating: written.ratingBefore, label: written.labelBefore),
              toSidecarAt: written.path)
          }
        } catch {
          if !failures.contains(error.description) { failures.append(error.description) }
        }
      }
      return (
        failures,
        files.mapValues {
          (SidecarWriter.current(for: $0), reader.header(ofFileAt: $0.path)?.culling)
        }
      )
    }
    var outcome = CullingOutcome(photosChanged: files.count, failures: results.0)
    if !results.0.isEmpty { outcome.photosChanged = 0 }
    for (index, (current, fromFile)) in results.1 {
      catalog.setCulling(current?.culling ?? fromFile, sidecar: current?.sidecar, at: index)
    }
    sidecarsChanged(of: Array(files.keys))
    return outcome
  }

  /// The folders of `photos` are stored afresh (their sidecars' stamps changed) and the
  /// photos are published in place.
  private func sidecarsChanged(of photos: [Int]) {
    guard !photos.isEmpty else { return }
    if facts != nil {
      for index in photos { foldersToStore.insert(catalog.folder(at: index)) }
      storeCompletedFolders()
    }
    publishFactsInPlace(of: photos)
  }
}
