import TesseraImages
import TesseraUtilities

/// An animated GIF or WebP plays in the detail view, fitted; a zoom shows its still picture.
/// The frames are decoded once, at the box's size, off the main actor; the run loop wakes
/// for each frame and, once a counted loop ends, not again. A terminal that plays animations
/// itself (kitty) gets every frame once and the run loop does not wake for them.
extension GalleryScreen {
  /// Starts decoding `item`'s frames for `request`'s box, ending what played before.
  func playAnimation(of item: GalleryItem, request: ImageRequest) {
    detail.stopPlaying()
    // Its header says; until it is read, a GIF's or WebP's name is reason enough to look.
    guard detail.zoom.isFitted, let local = item.local, let target = request.targetSize,
      local.isAnimated || (!local.headerRead && AnimationDecoder.mayBeAnimated(path: local.path))
    else { return }
    let path = local.path
    let itemID = item.id
    detail.animationLoad = Task { [weak self] in
      let decoded: Result<Animation?, ImagePipelineError>
      do throws(ImagePipelineError) {
        decoded = .success(
          try await AnimationDecoder.decode(
            fileAtPath: path, targetSize: target, maxFileBytes: FeedLimits.maxLocalFileBytes))
      } catch {
        decoded = .failure(error)
      }
      guard !Task.isCancelled, let self, case .detail(let shown) = overlay, shown.id == itemID
      else { return }
      switch decoded {
      case .success(let animation?):
        detail.playback = AnimationPlayback(
          itemID: itemID, animation: animation, request: request, start: .now,
          terminalPlays: terminal.playsAnimations)
        needsDisplay = true
      case .success(nil): break  // a still picture
      case .failure(let error):
        status.message = "✗ the animation cannot play: \(error)"
        needsDisplay = true
      }
    }
  }

  /// The run loop's tick for the animation: the frame of `now`. True when another frame is
  /// to be drawn.
  @discardableResult
  func advanceAnimation(at now: ContinuousClock.Instant) -> Bool {
    guard var playback = detail.playback else { return false }
    let moved = playback.advance(at: now)
    detail.playback = playback
    if moved { needsDisplay = true }
    return moved
  }

  /// When the run loop must wake with no input: the slideshow's next photo, the animation's
  /// or the video's next frame, the status bar's waiting figures, whichever is first; nil when
  /// none is coming.
  var nextTimedWake: ContinuousClock.Instant? {
    [modes.slideshow.running?.due, detail.playback?.due, detail.video?.due, status.figures.due]
      .compactMap { $0 }.min()
  }
}
