import TesseraImages
import TesseraPhotoLibrary
import TesseraUtilities

/// A video plays in the detail view, fitted, in every protocol: Enter opens it playing, Space
/// pauses and plays on (from the start once it ended), ←/→ seek, Esc stops it and frees the
/// decoder. Frames come from `services.startVideo` (an `ffmpeg` process) at the box's size, or
/// smaller and slower when the link measures less than they need.
extension GalleryScreen {
  /// How far ←/→ move in a video.
  static let seekStep = Duration.seconds(5)

  /// Starts playing `item` (a video, or with `motion` a Live Photo's or motion photo's
  /// video) at `request`'s box from `position`, ending what played.
  func playVideo(
    of item: GalleryItem, request: ImageRequest, from position: Duration = .zero,
    paused: Bool = false, motion: MotionSource? = nil
  ) {
    detail.stopPlaying()
    guard detail.zoom.isFitted, let local = item.local, local.isVideo || motion != nil,
      let box = request.targetSize
    else { return }
    let path = motion?.path ?? local.path
    let byteOffset = motion?.byteOffset ?? 0
    let byteLength = motion?.byteLength
    let itemID = item.id
    let probeVideo = services.probeVideo
    detail.videoLoad = Task { [weak self] in
      let probe = await BlockingWork.run { probeVideo(path, byteOffset, byteLength) }
      guard !Task.isCancelled, let self, case .detail(let shown) = overlay, shown.id == itemID
      else { return }
      guard
        let source = startVideoSource(
          path: path, byteOffset: byteOffset, byteLength: byteLength, probe: probe, box: box,
          from: position)
      else { return }
      var playback = VideoPlayback(
        itemID: itemID, path: path, byteOffset: byteOffset, byteLength: byteLength,
        isMotion: motion != nil,
        request: request, probe: probe, source: source, from: position, at: .now)
      if paused { playback.pause() }
      detail.video = playback
      needsDisplay = true
    }
  }

  /// `p` on a Live Photo or motion photo: plays its motion, or stops it.
  func toggleMotion() {
    guard case .detail(let item) = overlay, let motion = item.local?.motion,
      let request = detail.request
    else {
      status.message = "this photo has no motion to play"
      return
    }
    if detail.video?.itemID == item.id {
      detail.stopPlaying()
      return
    }
    playVideo(of: item, request: request, motion: motion)
  }

  /// A decoder for `path` from `position`, at the size and rate the box and the link allow;
  /// nil (and why, in the status bar) when it cannot start.
  private func startVideoSource(
    path: String, byteOffset: Int64, byteLength: Int64?, probe: VideoProbe, box: PixelSize,
    from position: Duration
  ) -> (any VideoFrameSource)? {
    let quality = VideoQuality.choose(
      box: box, sourceRate: probe.framesPerSecond, linkBytesPerSecond: terminal.linkBytesPerSecond)
    let request = VideoStream.Request(
      path: path, byteOffset: byteOffset, byteLength: byteLength, start: position,
      size: quality.size,
      framesPerSecond: quality.framesPerSecond)
    do throws(ImagePipelineError) {
      return try services.startVideo(request) { [weak self] in
        Task { @MainActor in self?.services.onNeedsDisplay?() }
      }
    } catch {
      status.message = "✗ the video cannot play: \(error)"
      needsDisplay = true
      return nil
    }
  }

  /// The run loop's tick for the video: the frame of `now`. True when another frame (or a
  /// failure) is to be drawn.
  @discardableResult
  func advanceVideo(at now: ContinuousClock.Instant) -> Bool {
    guard var playback = detail.video else { return false }
    let moved = playback.advance(at: now)
    if moved, let failure = playback.failure, detail.video?.failure == nil {
      status.message = "✗ the video stopped: \(failure)"
    }
    detail.video = playback
    // A photo's motion, once played, gives the still photo back.
    if playback.isMotion, playback.source.end == .finished { detail.stopPlaying() }
    if moved { needsDisplay = true }
    return moved
  }

  /// Space on a video: pause, play on, or play again from the start once it ended.
  func toggleVideoPlayback() {
    guard case .detail(let item) = overlay, item.local?.isVideo == true else { return }
    guard var playback = detail.video, playback.itemID == item.id else {
      if let request = detail.request { playVideo(of: item, request: request) }
      return
    }
    if playback.hasEnded {
      if let request = detail.request { playVideo(of: item, request: request) }
      return
    }
    if playback.isPaused { playback.resume(at: .now) } else { playback.pause() }
    detail.video = playback
  }

  /// ←/→ on a video: `seconds` from where it is, within its length.
  func seekVideo(by step: Duration) {
    guard case .detail(let item) = overlay, var playback = detail.video,
      playback.itemID == item.id, let box = playback.request.targetSize
    else { return }
    var target = max(.zero, playback.position + step)
    if let duration = playback.probe.duration { target = min(target, duration) }
    guard
      let source = startVideoSource(
        path: playback.path, byteOffset: playback.byteOffset, byteLength: playback.byteLength,
        probe: playback.probe, box: box, from: target)
    else { return }
    playback.restart(from: target, with: source, at: .now)
    detail.video = playback
  }
}
