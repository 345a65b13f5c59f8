import TesseraImages
import TesseraUtilities

/// A video frame source the test feeds: frames are released by hand, the end is said by hand,
/// and whether it was stopped is seen. Takes by time as ``VideoStream`` does.
final class HeldVideoFrames: VideoFrameSource {
  private struct State {
    var queue: [VideoFrame] = []
    var end: VideoEnd?
    var stopped = false
  }
  private let state = Locked(State())

  /// Queues a frame of one colour (`shade` in every pixel's red) at `time`.
  func release(at time: Duration, shade: UInt8 = 0) throws {
    let image = try TesseraImages.Image(
      width: 4, height: 2, pixels: (0..<8).flatMap { _ in [shade, 0, 0, 255] },
      originalSize: PixelSize(width: 4, height: 2))
    state.withLock { $0.queue.append(VideoFrame(image: image, time: time)) }
  }

  func finish(_ end: VideoEnd) { state.withLock { $0.end = end } }

  var stopped: Bool { state.withLock { $0.stopped } }

  func take(upTo time: Duration) -> VideoFrame? {
    state.withLock { state in
      guard let last = state.queue.lastIndex(where: { $0.time <= time }) else { return nil }
      defer { state.queue.removeFirst(last + 1) }
      return state.queue[last]
    }
  }

  var nextFrameTime: Duration? { state.withLock { $0.queue.first?.time } }

  var end: VideoEnd? { state.withLock { $0.queue.isEmpty ? $0.end : nil } }

  func stop() { state.withLock { $0.stopped = true } }
}
