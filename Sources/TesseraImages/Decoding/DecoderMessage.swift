/// A decoder library's complaint in words a person reads on a tile: "this JPEG ends early",
/// not "VipsJpeg: Premature end of input file". The library's own words go to the pipeline's
/// log; the tile says what is wrong with the file, once.
///
/// - Complexity: O(length of the message).
enum DecoderMessage {
  /// The format a libvips loader's message names by its prefix.
  private static let loaders: [(prefix: String, format: String)] = [
    ("vipsjpeg", "JPEG"), ("jpegload", "JPEG"), ("jxlload", "JPEG XL"), ("webp", "WebP"),
    ("gifload", "GIF"), ("gifnsload", "GIF"), ("heifload", "HEIF"), ("tiff", "TIFF"),
    ("pngload", "PNG"), ("vipspng", "PNG"), ("spngload", "PNG"), ("libpng", "PNG"),
  ]

  /// Words libraries use for a file that stops before its image does.
  private static let endsEarly = [
    "premature end", "truncated", "unexpected end", "end of file", "not enough data",
    "out of data", "short read", "read error", "eof",
  ]

  /// The sentence for `detail`, the library's message; `format` when the caller knows it
  /// (libjpeg's messages name no format).
  static func plain(_ detail: String, format known: String? = nil) -> String {
    let lowered = detail.lowercased()
    let format = known ?? loaders.first { lowered.hasPrefix($0.prefix) }?.format
    let file = format.map { "this \($0)" } ?? "this file"
    if lowered.contains("not a jpeg") { return "this is not a JPEG file" }
    // No loader and no magic number claimed the bytes (CVipsShim's words): not "damaged",
    // which would say a photo was lost.
    if lowered.contains("not in any image format") {
      return "this file is in no image format Tessera knows"
    }
    if endsEarly.contains(where: lowered.contains) { return "\(file) ends early" }
    return "\(file) is damaged: it does not decode"
  }
}
