/// One decoded frame of a playing video and its time from the video's start.
package struct VideoFrame: Sendable {
  package let image: Image
  package let time: Duration

  package init(image: Image, time: Duration) {
    self.image = image
    self.time = time
  }
}

/// How a video's frames ended: all played, or the decoder failed (and why, in its words).
package enum VideoEnd: Equatable, Sendable {
  case finished
  case failed(String)
}

/// Where a player takes a video's frames from: ``VideoStream`` (an `ffmpeg` process), or a
/// test's stand-in that holds and releases frames. A source decodes at most a few frames
/// ahead of what is taken and then waits, so a paused or slow player costs no work.
package protocol VideoFrameSource: AnyObject, Sendable {
  /// The newest decoded frame whose time is at or before `time`, dropping the older ones
  /// (frames a slow terminal could not show are skipped, never queued); nil when none is due.
  func take(upTo time: Duration) -> VideoFrame?
  /// The time of the next decoded frame, if one is waiting.
  var nextFrameTime: Duration? { get }
  /// Set once no frame will come any more, and every decoded one was taken or dropped.
  var end: VideoEnd? { get }
  /// Ends the decoding and frees what it holds; idempotent.
  func stop()
}
