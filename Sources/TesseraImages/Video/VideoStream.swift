import Foundation
import TesseraUtilities

/// A video decoded for playing by a separate `ffmpeg` process, as its posters are made, so a
/// crash or a hostile file cannot take the gallery down. ffmpeg seeks, drops or repeats frames
/// to a fixed rate, scales them to fit the box and writes them as PPM to a pipe; a reader
/// thread turns them into ``Image``s.
///
/// At most ``queueLength`` frames wait decoded; then the reader stops reading and ffmpeg
/// blocks on the full pipe. Memory is bounded by (``queueLength`` + 2) frames of the box's
/// size, and a paused video costs no CPU. ``stop()`` kills and reaps the process.
///
/// - Complexity: ``take(upTo:)`` is O(``queueLength``); each frame is read and converted in
///   O(its pixels).
package final class VideoStream: VideoFrameSource {
  /// What to play and how.
  package struct Request: Sendable, Equatable {
    package var path: String
    /// Where the video starts in the file: a motion photo's MP4 follows its JPEG.
    package var byteOffset: Int64
    /// The video's length from there; nil for the rest of the file.
    package var byteLength: Int64?
    /// Where in the video to start.
    package var start: Duration
    /// The largest frame: ffmpeg fits the picture inside it, keeping its shape.
    package var size: PixelSize
    package var framesPerSecond: Int

    package init(
      path: String, byteOffset: Int64 = 0, byteLength: Int64? = nil, start: Duration = .zero,
      size: PixelSize, framesPerSecond: Int
    ) {
      self.path = path
      self.byteOffset = max(0, byteOffset)
      self.byteLength = byteLength.map { max(1, $0) }
      self.start = max(.zero, start)
      self.size = PixelSize(
        width: min(max(1, size.width), VideoQuality.largest.width),
        height: min(max(1, size.height), VideoQuality.largest.height))
      self.framesPerSecond = min(max(1, framesPerSecond), VideoQuality.fastest)
    }
  }

  /// Decoded frames that may wait to be taken.
  package static let queueLength = 2

  private struct Shared {
    var queue: [VideoFrame] = []
    var end: VideoEnd?
    var stopped = false
  }

  private let child: RunningChild
  private let shared = Locked(Shared())
  /// Free places in the queue: the reader takes one before it reads a frame. Made at 0 and
  /// signalled up: libdispatch traps when a semaphore goes while below its initial value.
  private let places = DispatchSemaphore(value: 0)

  /// The decoder's process id, for tests that check it is gone after ``stop()``.
  package var processID: Int32 { child.pid }

  /// Starts decoding; `onChange` is called (on the reader's thread) when a frame is queued
  /// and when the frames end.
  package init(
    _ request: Request, program: String = "ffmpeg",
    onChange: @escaping @Sendable () -> Void
  ) throws(ImagePipelineError) {
    guard let child = RunningChild(program, arguments: Self.arguments(for: request)) else {
      throw .decodingFailed("\(program) could not be started: install ffmpeg to play videos")
    }
    self.child = child
    for _ in 0..<Self.queueLength { places.signal() }
    let reader = Reader(
      child: child, request: request, shared: shared, places: places, onChange: onChange)
    let thread = Thread { reader.run() }
    thread.name = "tessera video"
    thread.start()
  }

  deinit { stop() }

  /// ffmpeg's arguments: quiet, no audio or subtitles, square pixels, the fixed rate, fitted
  /// to the box, PPM frames on standard output. `-ss` before `-i` seeks by the container's
  /// index, then decodes exactly to the time asked.
  static func arguments(for request: Request) -> [String] {
    let seconds =
      Double(request.start.components.seconds)
      + Double(request.start.components.attoseconds) / 1e18
    var words = ["-nostdin", "-hide_banner", "-loglevel", "error", "-threads", "2"]
    if request.start > .zero { words += ["-ss", String(format: "%.3f", seconds)] }
    words += [
      "-i",
      input(path: request.path, byteOffset: request.byteOffset, byteLength: request.byteLength),
      "-map", "0:v:0", "-an", "-sn", "-dn",
      "-vf",
      "scale=iw*sar:ih,setsar=1,fps=\(request.framesPerSecond),"
        + "scale=\(request.size.width):\(request.size.height)"
        + ":force_original_aspect_ratio=decrease:flags=bilinear",
      "-f", "image2pipe", "-c:v", "ppm", "pipe:1",
    ]
    return words
  }

  /// ffmpeg's input for `path`, always through `file:` (a name with a colon is no protocol);
  /// a video inside a file (a motion photo's MP4 after its JPEG) through `subfile:`, whose
  /// reads (the MP4's own offsets included) are relative to its start.
  package static func input(path: String, byteOffset: Int64, byteLength: Int64?) -> String {
    guard byteOffset > 0 || byteLength != nil else { return "file:" + path }
    let end = byteLength.map { max(0, byteOffset) + $0 } ?? 0  // 0: to the file's end
    return "subfile,,start,\(max(0, byteOffset)),end,\(end),,:file:" + path
  }

  package func take(upTo time: Duration) -> VideoFrame? {
    let (frame, freed) = shared.withLock { shared -> (VideoFrame?, Int) in
      guard let last = shared.queue.lastIndex(where: { $0.time <= time }) else { return (nil, 0) }
      let frame = shared.queue[last]
      shared.queue.removeFirst(last + 1)
      return (frame, last + 1)
    }
    for _ in 0..<freed { places.signal() }
    return frame
  }

  /// Decoded frames not yet taken or dropped (at most ``queueLength``).
  package var waitingFrames: Int { shared.withLock { $0.queue.count } }

  package var nextFrameTime: Duration? { shared.withLock { $0.queue.first?.time } }

  package var end: VideoEnd? {
    shared.withLock { $0.queue.isEmpty ? $0.end : nil }
  }

  package func stop() {
    let first = shared.withLock { shared in
      defer { shared.stopped = true }
      shared.queue.removeAll()
      return !shared.stopped
    }
    guard first else { return }
    child.stop()
    places.signal()  // a reader waiting for a place sees the stop
  }

  /// The reader thread's work: frames from the pipe into the queue until the end.
  private struct Reader: Sendable {
    let child: RunningChild
    let request: Request
    let shared: Locked<Shared>
    let places: DispatchSemaphore
    let onChange: @Sendable () -> Void

    func run() {
      var pending: [UInt8] = []
      var index = 0
      let interval = Duration.seconds(1) / request.framesPerSecond
      let largest = request.size
      let outcome: VideoEnd
      reading: while true {
        places.wait()
        if shared.withLock({ $0.stopped }) { return }
        var header: PPMFrameHeader?
        while header == nil {
          switch PPMFrameHeader.parse(pending[...], largest: largest) {
          case .header(let parsed): header = parsed
          case .invalid(let reason):
            child.stop()
            outcome = .failed("ffmpeg's output: \(reason)")
            break reading
          case .needMore:
            guard fill(&pending, atLeast: pending.count + 1) else {
              outcome = ended(afterFrames: index, leftover: pending.count)
              break reading
            }
          }
        }
        guard let header else { return }
        let total = header.length + header.pixelBytes
        guard fill(&pending, atLeast: total) else {
          outcome = ended(afterFrames: index, leftover: pending.count)
          break reading
        }
        guard let image = Self.image(from: pending[header.length..<total], header: header) else {
          child.stop()
          outcome = .failed("a \(header.width)x\(header.height) frame could not be made")
          break reading
        }
        pending.removeFirst(total)
        let frame = VideoFrame(image: image, time: request.start + interval * index)
        index += 1
        let stopped = shared.withLock { shared in
          if !shared.stopped { shared.queue.append(frame) }
          return shared.stopped
        }
        if stopped { return }
        onChange()
      }
      let report = shared.withLock { shared in
        guard !shared.stopped else { return false }
        shared.end = outcome
        return true
      }
      if report { onChange() }
    }

    /// Reads until `pending` holds `count` bytes; false at the output's end first.
    private func fill(_ pending: inout [UInt8], atLeast count: Int) -> Bool {
      while pending.count < count {
        let before = pending.count
        // Enough for the rest of a frame (a header's read may take some pixels with it).
        let chunk = min(1 << 20, max(4096, count - before))
        var got = 0
        pending.append(contentsOf: repeatElement(0, count: chunk))
        pending.withUnsafeMutableBytes { bytes in
          got = child.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[before...]))
        }
        pending.removeLast(chunk - max(0, got))
        if got <= 0 { return false }
      }
      return true
    }

    /// How the frames ended once the output did: ffmpeg's status says whether it was the
    /// video's end or a failure, in ffmpeg's own words where it left some.
    private func ended(afterFrames frames: Int, leftover: Int) -> VideoEnd {
      let status = child.reap()
      if status == 0 && leftover == 0 {
        return frames > 0 || request.start > .zero
          ? .finished : .failed("ffmpeg found no picture to decode")
      }
      let said = child.lastErrorText().split(separator: "\n").last.map(String.init) ?? ""
      return .failed(said.isEmpty ? "ffmpeg ended with status \(status)" : "ffmpeg: \(said)")
    }

    /// RGB rows into an RGBA ``Image``.
    static func image(from rgb: ArraySlice<UInt8>, header: PPMFrameHeader) -> Image? {
      let count = header.width * header.height
      let pixels = [UInt8](unsafeUninitializedCapacity: count * 4) { buffer, initialized in
        rgb.withUnsafeBufferPointer { source in
          for pixel in 0..<count {
            buffer[pixel * 4] = source[pixel * 3]
            buffer[pixel * 4 + 1] = source[pixel * 3 + 1]
            buffer[pixel * 4 + 2] = source[pixel * 3 + 2]
            buffer[pixel * 4 + 3] = 255
          }
        }
        initialized = count * 4
      }
      let size = PixelSize(width: header.width, height: header.height)
      return try? Image(
        width: header.width, height: header.height, pixels: pixels, originalSize: size)
    }
  }
}
