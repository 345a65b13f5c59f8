import CVipsShim
import Foundation

extension PNGTextChunks {
  /// This text with the compressed chunks' added (zTXt, compressed iTXt: what GIMP or an
  /// older file manager may write), inflated by libvips' PNG loader, the only one run on
  /// these bytes. Keys already read stay as they are; a key or value that `parse` would
  /// refuse is left out. Blocking; self when there is nothing compressed.
  ///
  /// - Complexity: O(size of the PNG's header and text); the inflated text is bounded by
  ///   `ThumbnailLimits.maxTextChunks` × (keyword + text limits).
  func withCompressedText(of data: Data) -> PNGTextChunks {
    guard compressedTextChunks > 0 else { return self }
    let limit =
      ThumbnailLimits.maxTextChunks
      * (ThumbnailLimits.maxKeywordBytes + ThumbnailLimits.maxTextBytes + 2)
    var out: UnsafeMutablePointer<CChar>?
    var count = 0
    let status = data.withUnsafeBytes { raw in
      tessera_vips_png_text(raw.baseAddress, raw.count, limit, &out, &count)
    }
    defer { tessera_vips_free(out) }
    guard status == 0, let out else { return self }
    let bytes = UnsafeBufferPointer(
      start: UnsafeRawPointer(out).assumingMemoryBound(to: UInt8.self), count: count)
    let fields = bytes.split(separator: 0, omittingEmptySubsequences: false)
    var merged = self
    var index = 0
    while index + 1 < fields.count {
      let key = fields[index]
      let value = fields[index + 1]
      index += 2
      guard let key = Self.keyword(ArraySlice(key)), merged.text[key] == nil,
        value.count <= ThumbnailLimits.maxTextBytes,
        let text = String(validating: value, as: UTF8.self)
      else { continue }
      merged.text[key] = text
    }
    return merged
  }
}
