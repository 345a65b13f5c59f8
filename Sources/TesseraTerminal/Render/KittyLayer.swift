import TesseraUtilities

/// Images through the kitty graphics protocol.
///
/// Each image is uploaded once under a small id; each frame places (or re-places, to move)
/// what is visible and hides, without freeing, what left, so scrolling back costs a few
/// bytes of placement, not an upload. Inside tmux, every command goes through tmux's
/// passthrough, and images are shown by Unicode placeholder cells composed into the frame
/// (tmux then scrolls and clips them as text) where the terminal draws them (kitty 0.28 on);
/// an older kitty gets its placements through passthrough at the pane's cells on its screen. Uploads are bounded by a byte budget below kitty's own
/// quota; the least recently used images not on screen are freed past it.
struct KittyLayer {
  struct PlacementKey: Hashable {
    var id: UInt32
    var placement: UInt32
  }

  struct Geometry: Hashable {
    var x: Int
    var y: Int
    var columns: Int
    var rows: Int
    var source: KittyCommands.SourceRect?
  }

  /// What was uploaded under a kitty id: its pixel size, whether it is a low-resolution
  /// preview still to be replaced by full detail, and whether its frames went with it.
  struct Upload: Hashable {
    var size: PixelSize
    var preview: Bool
    var animated = false
  }

  /// How many frames after an animation's upload repeat its start command. kitty 0.26 (Debian
  /// 12's) starts an animation only if it has drawn the image when the command comes
  /// (`image_is_animatable` wants `is_drawn`), and the first start arrives with the upload,
  /// before any draw; a repeat after the draw starts it. Later kitty marks it drawn itself.
  static let startRepeats = 2

  /// A preview upload's resolution per side: a ninth of the pixels, a ninth of the bytes.
  static let previewScale = 1.0 / 3.0

  let placeholders: Bool
  /// Commands go through tmux's passthrough; direct placements at ``origin``'s offset.
  let passthrough: Bool
  /// The pane's top-left on the outer screen (``TmuxState/paneOrigin``).
  var origin = CellPoint(x: 0, y: 0)
  var cellSize: PixelSize
  /// How uploads are encoded (PNG: the smallest on photo-like content, see `tessera bench
  /// render`).
  var format: KittyPayloadFormat
  /// The terminal reads files on this machine (``TerminalCapabilities/kittyLocalFiles``):
  /// uploads go through temporary files, a path on the wire instead of pixels.
  var localFiles: Bool
  private var uploaded: [UInt32: Upload] = [:]
  private var ids: [UInt64: UInt32] = [:]
  private var imageIDs: [UInt32: UInt64] = [:]
  private var nextID: UInt32 = 1
  private var uploads: LRUCache<UInt32, UInt64>
  private var placed: [PlacementKey: Geometry] = [:]
  private var virtualSizes: [UInt32: Geometry] = [:]
  /// Animations whose start is still to be repeated (``startRepeats``), with their loops.
  private var pendingStarts: [UInt32: (loops: Int, repeats: Int)] = [:]

  init(
    placeholders: Bool, passthrough: Bool? = nil, cellSize: PixelSize,
    format: KittyPayloadFormat = .png, localFiles: Bool = false, uploadBudget: Int = 192 << 20
  ) {
    self.placeholders = placeholders
    self.passthrough = passthrough ?? placeholders
    self.cellSize = cellSize
    self.format = format
    self.localFiles = localFiles
    uploads = LRUCache(costLimit: uploadBudget)
  }

  /// The screen was cleared (`ED 2`, after a resize or a reset): placements are gone, and so
  /// are the uploads — kitty frees every image a clear leaves without a placement (checked in
  /// kitty 0.26 under Xvfb: after the window grew, tiles re-placed over their earlier uploads
  /// stayed blank). What is shown next is uploaded again. Virtual placements (tmux's
  /// placeholders) survive a clear, and so do their uploads.
  mutating func screenCleared() {
    placed.removeAll()
    guard !placeholders else { return }
    uploads.removeAll()
    uploaded.removeAll()
    virtualSizes.removeAll()
    pendingStarts.removeAll()
  }

  /// Uploads (written before the frame) and placeholder cells (composed into `frame`).
  ///
  /// An upload is the centre of the bitmap cropped to its tile's pixel aspect and scaled
  /// (both sides alike) to the tile's pixels at most, so the placement that shows it over
  /// the tile's cells draws it undistorted; a tile whose shape changed later shows the
  /// centre of the upload at its new aspect until the next full upload (see
  /// ``KittyGeometry``). Under ``ImageDrawPolicy/preview`` an image not on the terminal yet is
  /// uploaded at ``previewScale``; the next frame drawn with ``ImageDrawPolicy/all`` replaces
  /// it (and any upload made for another tile shape) with full detail.
  ///
  /// A placement with an ``ImageAnimation`` is uploaded with all its frames and started (not
  /// as a preview): kitty plays it with no further bytes but the start's repeats.
  mutating func prepare(
    _ placements: [ImagePlacement], frame: inout FrameBuffer, policy: ImageDrawPolicy,
    imageBudget: Int = .max, uploadsOut: inout ByteWriter, statistics: inout RenderStatistics
  ) -> [(PlacementKey, Geometry)] {
    let start = uploadsOut.count
    var policy = policy
    if policy == .previewsFirst {
      let bare = placements.contains {
        $0.visible(in: frame.bounds) != nil
          && ids[$0.imageID].flatMap { uploads.value(for: $0) } == nil
      }
      policy = bare ? .preview : .all
    }
    var wanted: [(PlacementKey, Geometry)] = []
    var occurrences: [UInt32: UInt32] = [:]
    for placement in placements {
      guard let visible = placement.visible(in: frame.bounds) else { continue }
      let id = kittyID(for: placement.imageID)
      if policy == .none {
        statistics.imagesDeferred += 1
        continue
      }
      let rect = placement.rect
      let box = KittyGeometry.box(columns: rect.width, rows: rect.height, cell: cellSize)
      let existing = uploads.value(for: id) != nil ? uploaded[id] : nil
      let animation = policy == .preview ? nil : placement.animation
      let stale =
        existing.map {
          $0.preview || !Self.fits($0.size, box) || (animation != nil && !$0.animated)
        } ?? true
      // Past the frame's budget the rest wait for a later frame; one upload may end past it.
      let withinBudget = uploadsOut.count - start < imageBudget
      let mayUpload =
        withinBudget && (policy == .all || (policy == .preview && existing == nil))
      if stale && mayUpload {
        let before = uploadsOut.count
        let upload = self.upload(
          placement.bitmap, animation: animation, id: id, box: box, preview: policy == .preview,
          into: &uploadsOut, statistics: &statistics)
        let evicted = uploads.insert(placement.imageID, for: id, cost: upload.pixels)
        for old in evicted { forget(kittyID: old.key, into: &uploadsOut) }
        statistics.imageConversions += 1
        statistics.imageBytesUploaded += uploadsOut.count - before
        if policy == .preview { statistics.previewUploads += 1 }
      } else if existing != nil {
        // A preview (or a smaller upload) stays up; past the budget its replacement is
        // deferred, so the caller draws again when the link has room.
        if stale && policy == .all {
          statistics.imagesDeferred += 1
        } else {
          statistics.imageCacheHits += 1
        }
        repeatStart(of: id, into: &uploadsOut)
      } else {
        statistics.imagesDeferred += 1
        continue
      }
      guard let upload = uploaded[id] else { continue }
      let crop = placement.crop(of: visible)
      if placeholders {
        let size = Geometry(x: 0, y: 0, columns: rect.width, rows: rect.height, source: nil)
        if virtualSizes[id] != size {
          KittyCommands.placeVirtual(
            id: id, columns: size.columns, rows: size.rows, passthrough: passthrough,
            into: &uploadsOut)
          virtualSizes[id] = size
        }
        let style = CellStyle(foreground: KittyPlaceholder.colour(for: id))
        for row in 0..<visible.height {
          for column in 0..<visible.width {
            guard
              let grapheme = KittyPlaceholder.grapheme(row: crop.y + row, column: crop.x + column)
            else { continue }
            frame.set(Cell(grapheme, style: style), x: visible.x + column, y: visible.y + row)
          }
        }
        continue
      }
      let occurrence = (occurrences[id] ?? 0) + 1
      occurrences[id] = occurrence
      let source = KittyGeometry.source(
        upload: upload.size, columns: rect.width, rows: rect.height, cell: cellSize,
        visible: crop)
      wanted.append(
        (
          PlacementKey(id: id, placement: occurrence),
          Geometry(
            x: visible.x, y: visible.y, columns: visible.width, rows: visible.height,
            source: source)
        ))
    }
    return wanted
  }

  /// Whether an upload of `size` pixels has the aspect of a tile of `box` pixels, to the
  /// pixel: then it is shown whole.
  private static func fits(_ size: PixelSize, _ box: PixelSize) -> Bool {
    let shown = KittyGeometry.fillCrop(of: size, toAspectOf: box)
    return abs(shown.width - size.width) <= 1 && abs(shown.height - size.height) <= 1
  }

  /// Crops, scales and transmits one upload under `id` (replacing any earlier one: kitty
  /// then drops its placements, so they are placed again), with `animation`'s other frames
  /// after it, cropped and scaled alike, and the command that runs them. O(bitmap crop +
  /// upload pixels), per frame.
  private mutating func upload(
    _ bitmap: Bitmap, animation: ImageAnimation?, id: UInt32, box: PixelSize, preview: Bool,
    into out: inout ByteWriter, statistics: inout RenderStatistics
  ) -> (pixels: Int, size: PixelSize) {
    let crop = KittyGeometry.fillCrop(
      of: PixelSize(width: bitmap.width, height: bitmap.height), toAspectOf: box)
    let size = KittyGeometry.uploadSize(
      crop: PixelSize(width: crop.width, height: crop.height), box: box,
      scale: preview ? Self.previewScale : 1)
    func fitted(_ bitmap: Bitmap) -> Bitmap {
      let pixels = KittyGeometry.cropped(bitmap, to: crop)
      guard size.width != pixels.width || size.height != pixels.height,
        let smaller = try? Bitmap(
          width: size.width, height: size.height,
          pixels: AreaResampler.resample(pixels, width: size.width, height: size.height))
      else { return pixels }
      statistics.pixelsResampled += size.width * size.height
      return smaller
    }
    let pixels = fitted(bitmap)
    transmit(pixels, id: id, frameGap: nil, into: &out)
    var total = pixels.pixels.count
    pendingStarts[id] = nil
    if let animation {
      for (frame, gap) in zip(animation.frames, animation.gapsInMilliseconds).dropFirst() {
        let fittedFrame = fitted(frame)
        transmit(fittedFrame, id: id, frameGap: gap, into: &out)
        total += fittedFrame.pixels.count
      }
      KittyCommands.setFirstFrameGap(
        id: id, milliseconds: animation.gapsInMilliseconds[0], passthrough: passthrough,
        into: &out)
      KittyCommands.runAnimation(
        id: id, loopCount: animation.loopCount, passthrough: passthrough, into: &out)
      pendingStarts[id] = (animation.loopCount, Self.startRepeats)
    }
    let actual = PixelSize(width: pixels.width, height: pixels.height)
    uploaded[id] = Upload(size: actual, preview: preview, animated: animation != nil)
    placed = placed.filter { $0.key.id != id }
    virtualSizes[id] = nil
    return (total, actual)
  }

  /// One image or frame, through a temporary file where the terminal reads ours, else inline.
  private func transmit(_ bitmap: Bitmap, id: UInt32, frameGap: Int?, into out: inout ByteWriter) {
    if !localFiles
      || !KittyCommands.transmitFile(
        id: id, bitmap: bitmap, frameGap: frameGap, passthrough: passthrough, into: &out)
    {
      KittyCommands.transmit(
        id: id, bitmap: bitmap, format: format, frameGap: frameGap, passthrough: passthrough,
        into: &out)
    }
  }

  /// Repeats an animation's start on a frame after its upload (see ``startRepeats``).
  private mutating func repeatStart(of id: UInt32, into out: inout ByteWriter) {
    guard let pending = pendingStarts[id] else { return }
    KittyCommands.runAnimation(
      id: id, loopCount: pending.loops, passthrough: passthrough, into: &out)
    pendingStarts[id] = pending.repeats > 1 ? (pending.loops, pending.repeats - 1) : nil
  }

  /// Places what moved or appeared and hides what left; written after the text of the frame.
  /// Returns whether the cursor moved.
  mutating func place(_ wanted: [(PlacementKey, Geometry)], into out: inout ByteWriter) -> Bool {
    guard !placeholders else { return false }
    var next: [PlacementKey: Geometry] = [:]
    var moved = false
    for (key, geometry) in wanted {
      next[key] = geometry
      if placed[key] == geometry { continue }
      if passthrough {
        var command = ByteWriter()
        KittyCommands.place(
          id: key.id, placement: key.placement, columns: geometry.columns, rows: geometry.rows,
          source: geometry.source, passthrough: false, into: &command)
        TmuxPassthrough.positioned(
          command.bytes, at: CellPoint(x: geometry.x, y: geometry.y), origin: origin, into: &out)
        continue
      }
      CursorMotion.move(from: nil, to: (geometry.x, geometry.y), into: &out)
      moved = true
      KittyCommands.place(
        id: key.id, placement: key.placement, columns: geometry.columns, rows: geometry.rows,
        source: geometry.source, passthrough: false, into: &out)
    }
    // In id order: the same frames write the same bytes, whatever the dictionary's order.
    let left = placed.keys.filter { next[$0] == nil }.sorted {
      ($0.id, $0.placement) < ($1.id, $1.placement)
    }
    for key in left {
      KittyCommands.hide(
        id: key.id, placement: key.placement, passthrough: passthrough, into: &out)
    }
    placed = next
    return moved
  }

  /// Frees the upload of an image the app will not show again.
  mutating func forget(imageID: UInt64, into out: inout ByteWriter) {
    guard let id = ids[imageID] else { return }
    uploads.remove(id)
    forget(kittyID: id, into: &out)
  }

  private mutating func forget(kittyID id: UInt32, into out: inout ByteWriter) {
    KittyCommands.free(id: id, passthrough: passthrough, into: &out)
    placed = placed.filter { $0.key.id != id }
    virtualSizes[id] = nil
    uploaded[id] = nil
    pendingStarts[id] = nil
    if let imageID = imageIDs.removeValue(forKey: id) { ids[imageID] = nil }
  }

  private mutating func kittyID(for imageID: UInt64) -> UInt32 {
    if let id = ids[imageID] { return id }
    // Ids stay below 2^24: a placeholder's foreground colour carries them. Past that they
    // wrap, skipping ids still in use.
    var id = nextID
    while imageIDs[id] != nil { id = id >= 0xFF_FFFF ? 1 : id + 1 }
    nextID = id >= 0xFF_FFFF ? 1 : id + 1
    ids[imageID] = id
    imageIDs[id] = imageID
    return id
  }
}
