import CVipsShim
import Foundation
import TesseraPhotoFormats
import TesseraUtilities

/// Decodes every frame of an animated GIF or WebP for the detail view to play, through
/// libvips (each frame composed onto the canvas, as the format says), shrunk to the box.
/// The same trust rules as still images: network bytes reach only the photo decoders, and
/// the frames' memory is bounded before any is decoded (``maxBytes``: more frames means
/// smaller ones, never more memory; past ``maxFrames`` the rest are not played).
///
/// APNG files and AVIF sequences, which Debian 12's libvips (8.14) reads one picture of, are
/// decoded by ffmpeg (`SequenceDecoder`), from local files only.
public enum AnimationDecoder {
  /// Frames decoded at most: 20 s at 25 frames a second.
  public static let maxFrames = 500
  /// The frames' RGBA at most: 192 MiB, what ~25 full-screen frames of a 4K terminal take.
  public static let maxBytes = 192 << 20

  /// The animation in `data`, its frames fitted inside `targetSize` (never enlarged); nil
  /// when the bytes hold a single picture. `maxPixels` bounds the canvas, as
  /// `ImagePipeline.Configuration.maxPixels` bounds a still image. Blocking and CPU-bound: call it off the main actor
  /// and the cooperative pool.
  public static func decode(
    _ data: Data, targetSize: PixelSize, source: ImageRequest.Source = .network,
    maxFrames: Int = AnimationDecoder.maxFrames, maxBytes: Int = AnimationDecoder.maxBytes,
    maxPixels: Int = 100_000_000
  ) throws(ImagePipelineError) -> Animation? {
    try ImageDecoder.requirePositive(targetSize)
    let frameLimit = min(max(1, maxFrames), Self.maxFrames)
    let byteLimit = min(max(4, maxBytes), Self.maxBytes)
    // The header's limits first: a canvas that claims gigapixels is refused undecoded.
    let data = PNGTextStrip.strippingText(data) ?? data
    let original = try ImageDecoder(maxPixels: maxPixels).header(of: data, source: source)
    var delays = [Int32](repeating: 0, count: frameLimit)
    var facts = TesseraAnimation()
    var pixels: UnsafeMutablePointer<UInt8>?
    var length = 0
    let status = data.withUnsafeBytes { raw in
      tessera_vips_animation_rgba(
        raw.baseAddress, raw.count, ImageDecoder.allowedFormats(for: source),
        Int32(clamping: targetSize.width), Int32(clamping: targetSize.height),
        Int32(frameLimit), byteLimit, &pixels, &length, &delays, &facts)
    }
    if status == TESSERA_NOT_ANIMATED { return nil }
    guard status != TESSERA_REFUSED_FORMAT else {
      _ = ImageDecoder.lastError()
      throw .unsupportedFormat("this format")
    }
    guard status == 0, let pixels else {
      throw .decodingFailed(DecoderMessage.plain(ImageDecoder.lastError()))
    }
    defer { tessera_vips_free(pixels) }
    let width = Int(facts.frame_width)
    let height = Int(facts.frame_height)
    let count = Int(facts.frame_count)
    // Sides below 2^31 each: their product fits; the byte count must still be checked.
    let (frameBytes, overflow) = (width * height).multipliedReportingOverflow(by: 4)
    guard width > 0, height > 0, !overflow, (2...frameLimit).contains(count),
      frameBytes <= byteLimit, length == frameBytes * count
    else {
      throw .decodingFailed(
        "libvips returned \(length) bytes for \(count) frames of \(width)x\(height)")
    }
    let strip = UnsafeBufferPointer(start: pixels, count: length)
    var frames: [Image] = []
    frames.reserveCapacity(count)
    for index in 0..<count {
      let start = index * frameBytes
      frames.append(
        try Image(
          width: width, height: height, pixels: Array(strip[start..<start + frameBytes]),
          originalSize: original))
    }
    return try Animation(
      frames: frames, delaysInMilliseconds: delays.prefix(count).map(Int.init),
      loopCount: Int(facts.loop))
  }

  /// Whether the file at `path` is of a format that may animate (GIF, WebP, PNG, AVIF), by
  /// its name: what is worth decoding frames for when it is opened.
  public static func mayBeAnimated(path: String) -> Bool {
    guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return false }
    return ["gif", "webp", "png", "apng", "avif"].contains(
      path[path.index(after: dot)...].lowercased())
  }

  /// The animation in the local file at `path` (read as the pipeline reads a folder's
  /// photos: no link followed, size checked), off the caller's thread.
  public static func decode(
    fileAtPath path: String, targetSize: PixelSize, maxFileBytes: Int
  ) async throws(ImagePipelineError) -> Animation? {
    try await BlockingWork.run { () throws(ImagePipelineError) in
      let data = try LocalFileReader.fileBlocking(atPath: path, maxBytes: maxFileBytes)
      if let sequence = ImageSequence(Array(data.prefix(64 << 10))) {
        try ImageDecoder.requirePositive(targetSize)
        return try SequenceDecoder.decode(
          path: path, sequence: sequence, targetSize: targetSize, maxFrames: maxFrames,
          maxBytes: maxBytes, maxPixels: 100_000_000)
      }
      return try decode(data, targetSize: targetSize, source: .localFolder)
    }
  }
}
