import TesseraCollection
import TesseraImages
import TesseraTerminal
import TesseraUtilities

/// The detail view's own state (Enter on an item): the image slot its picture is bound to,
/// the request behind it, the id its placements carry, and the zoom and pan. Which item it
/// shows is the screen's `overlay`; the screen draws it (`GalleryScreen.drawDetail`).
@MainActor
final class DetailOverlay {
  let slot = ImageSlot<TesseraImages.Image>()
  /// What the detail view asked the pipeline for: the photo at the box's pixel size, times
  /// the zoom.
  var request: ImageRequest?
  /// How far the photo is zoomed and where.
  var zoom = PhotoZoom()
  /// The last picture shown and whose it was: while a zoom's larger decode loads, the smaller
  /// one stays on screen rather than a "loading" line.
  var shown: (itemID: String, image: TesseraImages.Image, request: ImageRequest)?

  /// The animation playing, once its frames are decoded (only while fitted: a zoom shows
  /// the still picture, decoded larger).
  var playback: AnimationPlayback?
  /// Decoding the shown item's frames.
  var animationLoad: Task<Void, Never>?
  /// The video playing, once its decoder started (only while fitted).
  var video: VideoPlayback?
  /// Asking what the shown video is before it plays.
  var videoLoad: Task<Void, Never>?

  /// Back to the photo fitted in the box, as a newly opened one is.
  func resetView() {
    zoom = PhotoZoom()
    stopPlaying()
  }

  /// Ends the animation or video playing (the video's decoder is stopped and reaped).
  func stopPlaying() {
    animationLoad?.cancel()
    animationLoad = nil
    playback = nil
    videoLoad?.cancel()
    videoLoad = nil
    video?.stop()
    video = nil
  }

  /// The image box in `area` (the viewport) of a screen `width` cells wide: the area less a
  /// text block below (a local photo's facts take three more lines).
  static func imageBox(in area: CellRect, width: Int, isLocal: Bool) -> CellRect {
    let textRows = min(isLocal ? 9 : 8, max(isLocal ? 6 : 3, area.height / 3))
    return CellRect(
      x: 2, y: area.y + 1, width: max(1, width - 4), height: max(1, area.height - textRows - 2))
  }
}
