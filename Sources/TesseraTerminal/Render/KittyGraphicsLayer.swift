import Foundation
import TesseraUtilities

/// The kitty graphics protocol behind ``GraphicsLayer``: the ``KittyLayer`` engine (ids,
/// uploads under a byte budget, placements, frees) and the uploads and placements a frame
/// planned, held from ``prepare(_:frame:previous:usesScrollRegions:policy:damage:before:statistics:)``
/// to ``finish(into:)``.
///
/// Placements and Unicode placeholders are one type, configured by
/// ``GraphicsLayerSettings/kittyPlaceholders``: they share the ids, the uploads and their
/// budget and the frees, and placeholders are independent of passthrough (an older kitty
/// behind tmux gets direct placements through passthrough), so they are an option of the
/// protocol, not another protocol. What differs is decided here from that flag: placeholders
/// are cells of the frame, so a scrolled region moves them (``usesScrollRegions(insideTmux:movesWithText:)``)
/// and there is no placement to hide (``hideAll(into:)``).
///
/// - Complexity: O(placements) per frame, plus the uploads (see ``KittyLayer``).
final class KittyGraphicsLayer: GraphicsLayer {
  static var graphics: GraphicsProtocol { .kitty }
  static var sendsPreviews: Bool { true }
  static var keepsImagesAfterExit: Bool { true }
  static var playsAnimations: Bool { true }

  private(set) var engine: KittyLayer
  /// The placements `prepare` planned, placed by `finish`.
  private var placements: [(KittyLayer.PlacementKey, KittyLayer.Geometry)] = []
  /// Uploads `prepare` could not write before the frame (after a clear), written by `finish`.
  private var uploads = ByteWriter()

  init(settings: GraphicsLayerSettings) {
    engine = KittyLayer(
      placeholders: settings.kittyPlaceholders, passthrough: settings.passthrough,
      cellSize: settings.cellSize)
  }

  /// Images are Unicode placeholder cells composed into the frame.
  var placeholders: Bool { engine.placeholders }

  var reprintsUnchangedCells: Bool { true }

  /// Placeholders are text: a scrolled region moves them. Placements are not moved by it.
  func usesScrollRegions(insideTmux: Bool, movesWithText: Bool?) -> Bool { engine.placeholders }

  func configure(for capabilities: TerminalCapabilities) {
    engine.localFiles = capabilities.kittyLocalFiles
  }

  /// Over a slow link uploads go as palette PNGs: a third of the bytes, the time of a screen.
  var linkIsSlow: Bool {
    get { engine.format == .palettePNG }
    set { engine.format = newValue ? .palettePNG : .png }
  }

  func encodeInBackground(onReady: @escaping @Sendable () -> Void) {
    encode(
      on: .background, concurrency: ProcessInfo.processInfo.activeProcessorCount,
      onReady: onReady)
  }

  /// Still uploads are encoded by `executor` from now on (tests hold and release its work).
  func encode(
    on executor: KittyStill.Encoder.Executor, concurrency: Int,
    onReady: @escaping @Sendable () -> Void
  ) {
    engine.encoder = KittyStill.Encoder(
      executor: executor, concurrency: concurrency, onReady: onReady)
  }

  var cellSize: PixelSize {
    get { engine.cellSize }
    set { engine.cellSize = newValue }
  }

  var origin: CellPoint {
    get { engine.origin }
    set { engine.origin = newValue }
  }

  func screenCleared() { engine.screenCleared() }

  /// A fresh engine: every image is uploaded again, after the end of any upload the old
  /// engine left part-way (kitty would take the next upload's chunks as its own).
  func reset() {
    let origin = engine.origin
    let unfinished = engine.transferInProgress || engine.endsTransmission
    engine = KittyLayer(
      placeholders: engine.placeholders, passthrough: engine.passthrough,
      cellSize: engine.cellSize, format: engine.format, localFiles: engine.localFiles,
      encoder: engine.encoder)
    engine.origin = origin
    engine.endsTransmission = unfinished
    placements = []
    uploads = ByteWriter()
  }

  func hideAll(into out: inout ByteWriter) {
    guard !engine.placeholders else { return }
    // kitty drops a load under way at any deletion: the transfer ends first.
    engine.endTransfer(into: &out)
    KittyCommands.hideAll(passthrough: engine.passthrough, into: &out)
  }

  func forget(imageID: UInt64, into out: inout ByteWriter) {
    engine.forget(imageID: imageID, into: &out)
  }

  /// Uploads go before synchronized output: they change nothing visible. Not before a clear,
  /// though: kitty (0.26) frees on `ED 2` an image that has no placement yet, so after a
  /// resize every upload would be lost; then they follow the redrawn text.
  func prepare(
    _ images: [ImagePlacement], frame: inout FrameBuffer, previous: FrameBuffer?,
    usesScrollRegions: Bool, policy: ImageDrawPolicy, imageBudget: Int, damage: inout [Bool],
    before: inout ByteWriter, statistics: inout RenderStatistics
  ) -> ScrollDetector.Scroll? {
    var planned = ByteWriter()
    placements = engine.prepare(
      images, frame: &frame, policy: policy, imageBudget: imageBudget, uploadsOut: &planned,
      statistics: &statistics)
    if previous != nil {
      before.append(planned.bytes)
      planned = ByteWriter()
    }
    uploads = planned
    return Self.rowsMoved(from: previous, to: frame, usesScrollRegions: usesScrollRegions)
  }

  func finish(into out: inout ByteWriter) -> Bool {
    out.append(uploads.bytes)
    uploads = ByteWriter()
    let moved = engine.place(placements, into: &out)
    placements = []
    return moved
  }
}
