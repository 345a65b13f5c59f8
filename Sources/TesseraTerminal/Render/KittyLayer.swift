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

  /// A preview upload's resolution per side: a twenty-fifth of the pixels, a picture kitty
  /// scales to the tile. The issue asked for a sixteenth; a fifth of the side, with
  /// ``previewColours``, halves the previews' bytes (0.11 → 0.05 MB for twelve tiles) and
  /// brings the first screen under half of timg's bytes (docs/BENCHMARKS.md).
  static let previewScale = 1.0 / 5.0
  /// Colours of a preview's palette (across SSH, `KittyPayloadFormat.palettePNG`).
  static let previewColours = 32

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
  /// Where still uploads are encoded: on the caller's thread by default, on other threads
  /// ahead of the frame that sends them when the owner asks (``KittyStill``).
  var encoder: KittyStill.Encoder
  private var uploaded: [UInt32: Upload] = [:]
  private var ids: [UInt64: UInt32] = [:]
  private var imageIDs: [UInt32: UInt64] = [:]
  private var nextID: UInt32 = 1
  private var uploads: LRUCache<UInt32, UInt64>
  private var placed: [PlacementKey: Geometry] = [:]
  private var virtualSizes: [UInt32: Geometry] = [:]
  /// Animations whose start is still to be repeated (``startRepeats``), with their loops.
  private var pendingStarts: [UInt32: (loops: Int, repeats: Int)] = [:]
  /// The upload on its way in chunks (``KittyTransfer``): while it is, no other starts.
  private var transfer: KittyTransfer?
  /// Ids a completed transfer replaced: freed after the placements that show their
  /// replacements, so the tile is never blank between the two.
  private var retired: [UInt32] = []
  /// Ids to free, written after the frame's placements once no transfer is under way
  /// (``writeHeldFrees(into:)``): kitty before 0.38.1 frees, with the image a `d=I` names, every
  /// image created after it that has no placement (graphics.c `filter_refs`, fixed by kitty's
  /// 8facaf4 "deleted but not freed images without any references being incorrectly freed on a
  /// subsequent delete command"): the load under way, an upload completed and not yet placed,
  /// a tile hidden for scrolling back. A real kitty 0.26.5 left five of eight tiles blank that
  /// way (a recorded session replayed: with its deletions taken out, all eight showed).
  private var heldFrees: [UInt32] = []
  /// When kitty created each image it holds, in order (its image table's order): a free of one
  /// takes every later one with no placement (``heldFrees``).
  private var creation: [UInt32: Int] = [:]
  private var creations = 0
  /// Ids whose placements this engine stopped tracking, held for their free: kitty keeps those
  /// placements until the free is written, and a free before it spares them.
  private var placedUntilFreed: Set<UInt32> = []
  /// kitty may still be loading an upload this engine will not finish (the screen was
  /// cleared, or the renderer reset): the next frame first ends it.
  var endsTransmission = false

  /// Whether an upload is part-way to the terminal.
  var transferInProgress: Bool { transfer != nil }

  init(
    placeholders: Bool, passthrough: Bool? = nil, cellSize: PixelSize,
    format: KittyPayloadFormat = .png, localFiles: Bool = false, uploadBudget: Int = 192 << 20,
    encoder: KittyStill.Encoder = KittyStill.Encoder(executor: .inline)
  ) {
    self.placeholders = placeholders
    self.encoder = encoder
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
  /// kitty drops an image still loading with the rest (it has no placement), so a transfer
  /// under way is ended and starts again.
  mutating func screenCleared() {
    placed.removeAll()
    guard !placeholders else { return }
    creation.removeAll()
    heldFrees.removeAll()
    placedUntilFreed.removeAll()
    if let current = transfer { abandon(current) }
    for id in retired { release(id) }
    retired.removeAll()
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
  ///
  /// Uploads go in chunks within `imageBudget` (``KittyTransfer``): one that does not fit
  /// goes on in the next frames, the tile keeping what it showed meanwhile, and no other
  /// upload starts until it is whole. A transfer for an image no longer on screen is ended,
  /// and so is a full-detail one with more than half to go while a tile on screen has no
  /// picture at all: that tile's preview goes first.
  mutating func prepare(
    _ placements: [ImagePlacement], frame: inout FrameBuffer, policy: ImageDrawPolicy,
    imageBudget: Int = .max, uploadsOut: inout ByteWriter, statistics: inout RenderStatistics
  ) -> [(PlacementKey, Geometry)] {
    let start = uploadsOut.count
    if endsTransmission {
      KittyCommands.endTransmission(passthrough: passthrough, into: &uploadsOut)
      endsTransmission = false
    }
    let onScreen = placements.compactMap { placement in
      placement.visible(in: frame.bounds).map { (placement, $0) }
    }
    // Whether a tile on screen has no picture at all (the one on its way aside); asked only by
    // the first screen's policy and by a transfer that a preview may outrank.
    let bare =
      (policy == .previewsFirst || transfer != nil)
      && onScreen.contains { placement, _ in
        placement.imageID != transfer?.imageID
          && ids[placement.imageID].flatMap { uploads.value(for: $0) } == nil
      }
    var policy = policy
    if policy == .previewsFirst { policy = bare ? .preview : .all }
    if let current = transfer {
      let wanted = onScreen.contains { $0.0.imageID == current.imageID }
      let outranked = bare && policy == .preview && !current.upload.preview
      if !wanted || (outranked && current.remaining * 2 > current.bytesTotal) {
        end(current, into: &uploadsOut)
      } else if policy != .none {
        continueTransfer(
          budget: imageBudget - (uploadsOut.count - start), into: &uploadsOut,
          statistics: &statistics)
      }
    }
    var wanted: [(PlacementKey, Geometry)] = []
    var occurrences: [UInt32: UInt32] = [:]
    var stillsWanted: Set<KittyStill.Key> = []
    // Encodings for tiles that left the screen are dropped before they run.
    defer { encoder.keep(only: stillsWanted) }
    for (placement, visible) in onScreen {
      if policy == .none {
        statistics.imagesDeferred += 1
        continue
      }
      let rect = placement.rect
      let box = KittyGeometry.box(columns: rect.width, rows: rect.height, cell: cellSize)
      let shown = ids[placement.imageID]
      let existing = shown.flatMap { uploads.value(for: $0) != nil ? uploaded[$0] : nil }
      let animation = policy == .preview ? nil : placement.animation
      let stale =
        existing.map {
          $0.preview || !Self.fits($0.size, box) || (animation != nil && !$0.animated)
        } ?? true
      // Past the frame's budget the rest wait for a later frame.
      let withinBudget = uploadsOut.count - start < imageBudget
      let wantsUpload = stale && (policy == .all || (policy == .preview && existing == nil))
      let mayStart = wantsUpload && transfer == nil && withinBudget
      let preview = policy == .preview
      // A still's encoding is asked for ahead of its turn, while the link carries another's,
      // unless it is the one on its way (inline, only at its turn).
      let still =
        wantsUpload && animation == nil && !localFiles
        ? KittyStill.key(for: placement, box: box, preview: preview, format: format) : nil
      if let still, mayStart || encoder.asksAhead,
        transfer?.imageID != placement.imageID || transfer?.upload.preview != preview
      {
        stillsWanted.insert(still)
        let bitmap = placement.bitmap
        encoder.request(still) { KittyStill.encode(bitmap, as: still) }
      }
      var uploadedNow = false
      if mayStart {
        let encoded = still.flatMap { encoder.take($0) }
        if still == nil || encoded != nil {
          let id =
            existing == nil ? kittyID(for: placement.imageID) : newID(for: placement.imageID)
          // Newest in kitty's table: were it still there, counting it newer only makes a free
          // forget it sooner.
          creations += 1
          creation[id] = creations
          let replaces = existing == nil ? nil : shown
          if let encoded {
            statistics.pixelsResampled += encoded.pixelsResampled
            transfer = transfer(
              of: encoded, imageID: placement.imageID, id: id, replaces: replaces,
              preview: preview)
          } else {
            transfer = encode(
              placement, animation: animation, id: id, replaces: replaces, box: box,
              preview: preview, statistics: &statistics)
          }
          statistics.imageConversions += 1
          if preview { statistics.previewUploads += 1 }
          continueTransfer(
            budget: imageBudget - (uploadsOut.count - start), into: &uploadsOut,
            statistics: &statistics)
          uploadedNow = transfer == nil
        }
      }
      guard let id = ids[placement.imageID], let upload = uploaded[id] else {
        statistics.imagesDeferred += 1
        continue
      }
      // A preview (or a smaller upload) stays up while its replacement waits for the link or
      // is on its way, counted deferred so the caller draws again when the link has room.
      let waiting = stale && (policy == .all || transfer?.imageID == placement.imageID)
      if waiting && !uploadedNow {
        statistics.imagesDeferred += 1
      } else if !uploadedNow {
        statistics.imageCacheHits += 1
        repeatStart(of: id, into: &uploadsOut)
      }
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

  /// Writes the transfer under way as far as `budget` goes; once whole, what it uploaded is
  /// recorded (``commit(_:)``).
  private mutating func continueTransfer(
    budget: Int, into out: inout ByteWriter, statistics: inout RenderStatistics
  ) {
    guard var current = transfer else { return }
    statistics.imageBytesUploaded += current.write(budget: budget, into: &out)
    transfer = current.isComplete ? nil : current
    if current.isComplete { commit(current) }
  }

  /// A whole upload: its id now shows its image, the id it replaced is retired, and the least
  /// recently used uploads past the budget are freed.
  private mutating func commit(_ done: KittyTransfer) {
    if let old = done.replaces {
      uploads.remove(old)
      uploaded[old] = nil
      pendingStarts[old] = nil
      retired.append(old)
    }
    ids[done.imageID] = done.id
    imageIDs[done.id] = done.imageID
    uploaded[done.id] = done.upload
    pendingStarts[done.id] = done.animationLoops.map { ($0, Self.startRepeats) }
    placed = placed.filter { $0.key.id != done.id }
    virtualSizes[done.id] = nil
    let evicted = uploads.insert(done.imageID, for: done.id, cost: done.pixels)
    for old in evicted { forget(kittyID: old.key) }
  }

  /// Gives up the transfer under way; kitty must then be told it ended
  /// (``KittyCommands/endTransmission(passthrough:into:)``), which ``endsTransmission`` asks
  /// of the next frame.
  private mutating func abandon(_ current: KittyTransfer) {
    transfer = nil
    endsTransmission = true
    // kitty drops an image whose load ended unfinished: no free may name it.
    creation[current.id] = nil
    if current.replaces != nil { release(current.id) }
  }

  /// Gives up the transfer under way and tells kitty now, in `out`.
  private mutating func end(_ current: KittyTransfer, into out: inout ByteWriter) {
    abandon(current)
    KittyCommands.endTransmission(passthrough: passthrough, into: &out)
    endsTransmission = false
  }

  /// Ends the transfer under way, if any, so that a deletion may follow (``heldFrees``).
  mutating func endTransfer(into out: inout ByteWriter) {
    if let current = transfer { end(current, into: &out) }
  }

  /// Writes the held frees, unless a transfer is under way. Each takes with it, in kitty before
  /// 0.38.1, every image created after it with no placement (``heldFrees``): those are
  /// forgotten here too, and uploaded again when shown. An id kitty no longer holds is not
  /// freed: such a deletion matches nothing, and that kitty then frees every image with no
  /// placement.
  private mutating func writeHeldFrees(into out: inout ByteWriter) {
    guard transfer == nil, !heldFrees.isEmpty else { return }
    let ids = heldFrees
    heldFrees.removeAll()
    for id in ids {
      placedUntilFreed.remove(id)
      guard let order = creation.removeValue(forKey: id) else { continue }
      KittyCommands.free(id: id, passthrough: passthrough, into: &out)
      let taken = creation.filter { $0.value > order && !isPlaced($0.key) }.keys.sorted()
      for other in taken {
        creation[other] = nil
        forgetLocally(other)
      }
    }
  }

  /// Whether kitty holds a placement of id `id` (a virtual one, under tmux's placeholders).
  private func isPlaced(_ id: UInt32) -> Bool {
    if placedUntilFreed.contains(id) { return true }
    if placeholders { return virtualSizes[id] != nil }
    return placed.keys.contains { $0.id == id }
  }

  /// Drops id `id`'s placements from the frame's plan; kitty keeps them until its free.
  private mutating func stopTracking(_ id: UInt32) {
    if isPlaced(id) { placedUntilFreed.insert(id) }
    placed = placed.filter { $0.key.id != id }
  }

  /// Forgets everything about kitty id `id`; writes nothing (kitty freed it by itself, or
  /// ``forget(kittyID:)`` holds its free).
  private mutating func forgetLocally(_ id: UInt32) {
    uploads.remove(id)
    placed = placed.filter { $0.key.id != id }
    virtualSizes[id] = nil
    uploaded[id] = nil
    pendingStarts[id] = nil
    retired.removeAll { $0 == id }
    release(id)
  }

  /// Forgets kitty id `id`'s link to its image, unless the image is shown under it.
  private mutating func release(_ id: UInt32) {
    guard let imageID = imageIDs.removeValue(forKey: id), ids[imageID] == id else { return }
    ids[imageID] = nil
  }

  /// Crops, scales and encodes one upload under `id`, with `animation`'s other frames after
  /// it, cropped and scaled alike, and the commands that run them, as a transfer to write.
  /// O(bitmap crop + upload pixels).
  private func encode(
    _ placement: ImagePlacement, animation: ImageAnimation?, id: UInt32, replaces: UInt32?,
    box: PixelSize, preview: Bool, statistics: inout RenderStatistics
  ) -> KittyTransfer {
    let (crop, size) = KittyStill.fit(placement.bitmap, box: box, preview: preview)
    func fitted(_ bitmap: Bitmap) -> Bitmap {
      let (pixels, resampled) = KittyStill.fitted(bitmap, crop: crop, size: size)
      statistics.pixelsResampled += resampled
      return pixels
    }
    var out = ByteWriter()
    var ends: [Int] = []
    let pixels = fitted(placement.bitmap)
    let colours = preview ? Self.previewColours : SixelPalette.largestPalette
    transmit(pixels, id: id, frameGap: nil, colours: colours, into: &out, commandEnds: &ends)
    var total = pixels.pixels.count
    if let animation {
      for (frame, gap) in zip(animation.frames, animation.gapsInMilliseconds).dropFirst() {
        let fittedFrame = fitted(frame)
        transmit(
          fittedFrame, id: id, frameGap: gap, colours: colours, into: &out, commandEnds: &ends)
        total += fittedFrame.pixels.count
      }
      KittyCommands.setFirstFrameGap(
        id: id, milliseconds: animation.gapsInMilliseconds[0], passthrough: passthrough,
        into: &out)
      ends.append(out.count)
      KittyCommands.runAnimation(
        id: id, loopCount: animation.loopCount, passthrough: passthrough, into: &out)
      ends.append(out.count)
    }
    return KittyTransfer(
      imageID: placement.imageID, id: id, replaces: replaces,
      upload: Upload(
        size: PixelSize(width: pixels.width, height: pixels.height), preview: preview,
        animated: animation != nil),
      pixels: total, animationLoops: animation?.loopCount, bytes: out.bytes, commandEnds: ends)
  }

  /// A still encoded ahead (``KittyStill``) as a transfer under `id`. O(payload).
  private func transfer(
    of still: KittyStill.Encoded, imageID: UInt64, id: UInt32, replaces: UInt32?, preview: Bool
  ) -> KittyTransfer {
    var out = ByteWriter()
    var ends: [Int] = []
    KittyCommands.transmit(
      id: id, payload: still.payload, passthrough: passthrough, into: &out, commandEnds: &ends)
    return KittyTransfer(
      imageID: imageID, id: id, replaces: replaces,
      upload: Upload(
        size: PixelSize(width: still.payload.width, height: still.payload.height),
        preview: preview),
      pixels: still.payload.width * still.payload.height * 4, animationLoops: nil,
      bytes: out.bytes, commandEnds: ends)
  }

  /// One image or frame, through a temporary file where the terminal reads ours, else inline.
  private func transmit(
    _ bitmap: Bitmap, id: UInt32, frameGap: Int?, colours: Int, into out: inout ByteWriter,
    commandEnds: inout [Int]
  ) {
    if localFiles,
      KittyCommands.transmitFile(
        id: id, bitmap: bitmap, frameGap: frameGap, passthrough: passthrough, into: &out)
    {
      commandEnds.append(out.count)
    } else {
      KittyCommands.transmit(
        id: id, bitmap: bitmap, format: format, frameGap: frameGap, colours: colours,
        passthrough: passthrough, into: &out, commandEnds: &commandEnds)
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
    defer {
      freeRetired()
      writeHeldFrees(into: &out)
    }
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
    let left = placed.keys.filter { next[$0] == nil && !retired.contains($0.id) }.sorted {
      ($0.id, $0.placement) < ($1.id, $1.placement)
    }
    // A hide is a deletion too, and cannot wait: the transfer under way ends first (it is
    // uploaded again later).
    if !left.isEmpty { endTransfer(into: &out) }
    for key in left {
      KittyCommands.hide(
        id: key.id, placement: key.placement, passthrough: passthrough, into: &out)
    }
    // A retired id's placements stay in kitty until its free (they were never hidden).
    for id in retired where placed.keys.contains(where: { $0.id == id }) {
      placedUntilFreed.insert(id)
    }
    placed = next
    return moved
  }

  /// Frees the ids replaced this frame, now that their replacements are placed.
  private mutating func freeRetired() {
    for id in retired {
      heldFrees.append(id)
      stopTracking(id)
      virtualSizes[id] = nil
      release(id)
    }
    retired.removeAll()
  }

  /// Frees the upload of an image the app will not show again.
  mutating func forget(imageID: UInt64, into out: inout ByteWriter) {
    if let current = transfer, current.imageID == imageID { end(current, into: &out) }
    guard let id = ids[imageID] else { return }
    forget(kittyID: id)
  }

  private mutating func forget(kittyID id: UInt32) {
    heldFrees.append(id)
    stopTracking(id)
    forgetLocally(id)
  }

  private mutating func kittyID(for imageID: UInt64) -> UInt32 {
    if let id = ids[imageID] { return id }
    let id = newID(for: imageID)
    ids[imageID] = id
    return id
  }

  /// An id no upload uses, for `imageID`: its first, or one to replace what shows it.
  private mutating func newID(for imageID: UInt64) -> UInt32 {
    // Ids stay below 2^24: a placeholder's foreground colour carries them. Past that they
    // wrap, skipping ids still in use.
    var id = nextID
    // An id whose free is still held is not taken either: the free would take its new image.
    while imageIDs[id] != nil || heldFrees.contains(id) { id = id >= 0xFF_FFFF ? 1 : id + 1 }
    nextID = id >= 0xFF_FFFF ? 1 : id + 1
    imageIDs[id] = imageID
    return id
  }
}
