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
  /// How many times the fitted size the photo is shown (1 fits it in the box).
  var zoom = 1.0
  /// The point of the photo at the box's centre, as fractions of its width and height.
  var centre = (x: 0.5, y: 0.5)
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

  /// Zoom levels: 1 (fit) to 16 times, so the decode stays within the pipeline's limits.
  static let zooms = 1.0...16.0

  /// Back to the photo fitted in the box, as a newly opened one is.
  func resetView() {
    zoom = 1
    centre = (0.5, 0.5)
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

  /// Where a photo of `heightPerWidth` (in cells) shows in `box` at `zoom` around `centre`:
  /// the cells on screen, and the window of the image (fractions of its sides) they show.
  /// Fitted (zoom 1) it is the whole photo at the top of the box, centred across; zoomed, as
  /// much of it as the box holds, the centre kept inside so no edge shows past the photo.
  static func view(
    heightPerWidth: Double, in box: CellRect, zoom: Double, centre: (x: Double, y: Double)
  ) -> (rect: CellRect, window: (x: Double, y: Double, width: Double, height: Double)) {
    var fitColumns = Double(box.width)
    var fitRows = fitColumns * heightPerWidth
    if fitRows > Double(box.height) {
      fitRows = Double(max(1, box.height))
      fitColumns = fitRows / max(heightPerWidth, 0.01)
    }
    let zoomedColumns = fitColumns * zoom
    let zoomedRows = fitRows * zoom
    let columns = min(zoomedColumns, Double(box.width))
    let rows = min(zoomedRows, Double(box.height))
    let windowWidth = min(1, columns / max(zoomedColumns, 1e-9))
    let windowHeight = min(1, rows / max(zoomedRows, 1e-9))
    let left = min(max(0, centre.x - windowWidth / 2), 1 - windowWidth)
    let top = min(max(0, centre.y - windowHeight / 2), 1 - windowHeight)
    let cellColumns = Int(clamping: columns.rounded(), to: 1...max(1, box.width))
    let cellRows = Int(clamping: rows.rounded(), to: 1...max(1, box.height))
    let y = zoom > 1 ? box.y + (box.height - cellRows) / 2 : box.y
    return (
      CellRect(
        x: box.x + (box.width - cellColumns) / 2, y: y, width: cellColumns, height: cellRows),
      (left, top, windowWidth, windowHeight)
    )
  }
}
