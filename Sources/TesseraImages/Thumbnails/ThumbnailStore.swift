import Foundation
import TesseraUtilities

/// Why a thumbnail could not be written (the decode it came from still succeeds).
struct ThumbnailWriteError: Error, CustomStringConvertible {
  let description: String
}

extension ThumbnailCache {
  /// Writes `png` as the `size` thumbnail of `original` through `PrivateFileWrite` (a
  /// temporary `0600` file renamed over the old one; missing folders `0700`). Blocking.
  func store(
    _ png: Data, size: ThumbnailSize, for original: ThumbnailOriginal
  ) throws(ThumbnailWriteError) {
    try replaceFile(at: url(of: size, for: original.name), with: png)
  }

  /// Records that this Tessera could not decode `original` (a 1×1 PNG with its URI and
  /// modification time under `fail/tessera-<version>/`), so it is not tried again until the
  /// file changes. Blocking.
  func recordFailure(of original: ThumbnailOriginal, png: Data) throws(ThumbnailWriteError) {
    try replaceFile(at: failureURL(for: original.name), with: png)
  }

  private func replaceFile(at url: URL, with data: Data) throws(ThumbnailWriteError) {
    do {
      try PrivateFileWrite.replace(url, with: data, temporarySuffix: ".png")
    } catch {
      throw ThumbnailWriteError(description: error.description)
    }
  }
}
