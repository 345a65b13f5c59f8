import Dispatch
import Foundation
import TesseraPhotoFormats
import TesseraUtilities

/// APNG files and AVIF image sequences, decoded for playing by a separate `ffmpeg` process,
/// as Debian 12's libvips reads one picture of each. Local files only (a network source's
/// bytes reach only the photo decoders). The same budget as ``AnimationDecoder``'s, fixed
/// before any frame is decoded: the frame count from `ffprobe`'s packets (demuxed, not
/// decoded), cut at `maxFrames`; the frames shrunk until all fit in `maxBytes`; ffmpeg killed
/// after ``timeLimit``. Each frame shows for its own packet's duration.
///
/// - Complexity: O(frames × their pixels), in ffmpeg and in the copy out of the pipe.
enum SequenceDecoder {
  /// The longest a decode may take before ffmpeg is killed.
  static let timeLimit = DispatchTimeInterval.seconds(20)

  static func decode(
    path: String, sequence: ImageSequence, targetSize: PixelSize, maxFrames: Int,
    maxBytes: Int, maxPixels: Int
  ) throws(ImagePipelineError) -> Animation? {
    let name = sequence.kind == .apng ? "APNG" : "image sequence"
    let input = VideoStream.input(path: path, byteOffset: 0, byteLength: nil)
    guard
      let text = ChildProcess.output(
        of: "ffprobe",
        arguments: [
          "-v", "error", "-select_streams", "v:0", "-show_entries",
          "stream=width,height:packet=duration_time", "-of", "default=noprint_wrappers=1", input,
        ], timeout: 10, limit: 1 << 20)
    else { throw .decodingFailed("ffprobe could not read this \(name): install ffmpeg to play it") }
    let facts = SequenceFacts.parse(text)
    let count = min(facts.durations.count, max(1, maxFrames))
    guard count >= 2 else { return nil }
    guard let canvas = facts.size, canvas.width * canvas.height <= maxPixels else {
      throw .decodingFailed("this \(name)'s size is not one Tessera plays")
    }
    let size = frameSize(canvas: canvas, target: targetSize, frames: count, maxBytes: maxBytes)
    let frameBytes = size.width * size.height * 4
    guard
      let child = RunningChild(
        "ffmpeg",
        arguments: [
          "-nostdin", "-hide_banner", "-loglevel", "error", "-threads", "2", "-i", input,
          "-map", "0:v:0", "-frames:v", String(count), "-fps_mode", "passthrough", "-vf",
          "scale=\(size.width):\(size.height):flags=bilinear", "-f", "rawvideo", "-pix_fmt",
          "rgba", "pipe:1",
        ])
    else { throw .decodingFailed("ffmpeg could not be started: install ffmpeg to play it") }
    // A hostile file can make a decoder hang: the kill ends the read below.
    DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit) { child.stop() }
    defer { child.stop() }
    var frames: [Image] = []
    while frames.count < count, let pixels = child.read(exactly: frameBytes) {
      frames.append(
        try Image(width: size.width, height: size.height, pixels: pixels, originalSize: canvas))
    }
    guard frames.count >= 2 else {
      let said = child.lastErrorText().split(separator: "\n").last.map(String.init) ?? ""
      throw .decodingFailed(
        said.isEmpty
          ? "ffmpeg decoded \(frames.count) of this \(name)'s \(count) frames"
          : "ffmpeg: \(said)")
    }
    return try Animation(
      frames: frames,
      delaysInMilliseconds: facts.durations.prefix(frames.count).map {
        Int(($0 * 1000).rounded())
      },
      loopCount: sequence.plays)
  }

  /// The first frame of the sequence at `path` as a PNG, for the pipeline to decode as any
  /// picture (ffmpeg's own PNG writer, killed after ``timeLimit``).
  static func firstFramePNG(atPath path: String, maxBytes: Int) throws(ImagePipelineError) -> Data {
    guard
      let child = RunningChild(
        "ffmpeg",
        arguments: [
          "-nostdin", "-hide_banner", "-loglevel", "error", "-threads", "2", "-i",
          VideoStream.input(path: path, byteOffset: 0, byteLength: nil), "-map", "0:v:0",
          "-frames:v", "1", "-f", "image2pipe", "-c:v", "png", "pipe:1",
        ])
    else {
      throw .decodingFailed("ffmpeg could not be started: install ffmpeg for image sequences")
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit) { child.stop() }
    defer { child.stop() }
    var png: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while png.count <= maxBytes {
      let got = buffer.withUnsafeMutableBytes { child.read(into: $0) }
      guard got > 0 else { break }
      png += buffer[0..<got]
    }
    let status = child.reap()
    guard status == 0, !png.isEmpty, png.count <= maxBytes else {
      let said = child.lastErrorText().split(separator: "\n").last.map(String.init) ?? ""
      throw .decodingFailed(
        said.isEmpty ? "ffmpeg made no picture of this image sequence" : "ffmpeg: \(said)")
    }
    return Data(png)
  }

  /// `canvas` fitted inside `target` (never enlarged), then shrunk until `frames` of it fit
  /// in `maxBytes` of RGBA.
  static func frameSize(
    canvas: PixelSize, target: PixelSize, frames: Int, maxBytes: Int
  ) -> PixelSize {
    var scale = min(
      1, Double(max(1, target.width)) / Double(canvas.width),
      Double(max(1, target.height)) / Double(canvas.height))
    let bytes = Double(canvas.width * canvas.height * 4 * frames) * scale * scale
    if bytes > Double(maxBytes) { scale *= (Double(maxBytes) / bytes).squareRoot() }
    return PixelSize(
      width: max(1, Int(Double(canvas.width) * scale)),
      height: max(1, Int(Double(canvas.height) * scale)))
  }
}

/// What `ffprobe` says of a sequence: its canvas and each packet's duration in seconds,
/// each number checked (outside input).
struct SequenceFacts: Equatable {
  var size: PixelSize?
  var durations: [Double] = []

  /// - Complexity: O(text).
  static func parse(_ text: String) -> SequenceFacts {
    var facts = SequenceFacts()
    var width: Int?
    var height: Int?
    for line in text.split(whereSeparator: \.isNewline) {
      guard let equals = line.firstIndex(of: "=") else { continue }
      let key = line[..<equals]
      let value = line[line.index(after: equals)...]
      switch key {
      case "width": width = Int(value).flatMap { (1...65_535).contains($0) ? $0 : nil }
      case "height": height = Int(value).flatMap { (1...65_535).contains($0) ? $0 : nil }
      case "duration_time":
        // A frame with no stated duration plays at the default (0 here, raised later).
        let seconds = Double(value) ?? 0
        facts.durations.append(seconds.isFinite && seconds > 0 && seconds < 3600 ? seconds : 0)
      default: break
      }
    }
    if let width, let height { facts.size = PixelSize(width: width, height: height) }
    return facts
  }
}
