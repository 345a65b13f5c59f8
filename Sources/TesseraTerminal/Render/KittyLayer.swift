import TesseraUtilities

/// Images through the kitty graphics protocol.
///
/// Each image is uploaded once under a small id; each frame places (or re-places, to move)
/// what is visible and hides, without freeing, what left, so scrolling back costs a few
/// bytes of placement, not an upload. Inside tmux, images are shown by Unicode placeholder
/// cells composed into the frame (tmux then scrolls and clips them as text) and every command
/// goes through tmux's passthrough. Uploads are bounded by a byte budget below kitty's own
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

  let placeholders: Bool
  var cellSize: PixelSize
  private var uploadedSizes: [UInt32: PixelSize] = [:]
  private var ids: [UInt64: UInt32] = [:]
  private var imageIDs: [UInt32: UInt64] = [:]
  private var nextID: UInt32 = 1
  private var uploads: LRUCache<UInt32, UInt64>
  private var placed: [PlacementKey: Geometry] = [:]
  private var virtualSizes: [UInt32: Geometry] = [:]

  init(placeholders: Bool, cellSize: PixelSize, uploadBudget: Int = 192 << 20) {
    self.placeholders = placeholders
    self.cellSize = cellSize
    uploads = LRUCache(costLimit: uploadBudget)
  }

  /// The screen was cleared: placements are gone, uploads remain.
  mutating func screenCleared() { placed.removeAll() }

  /// Uploads (written before the frame) and placeholder cells (composed into `frame`).
  mutating func prepare(
    _ placements: [ImagePlacement], frame: inout FrameBuffer, policy: ImageDrawPolicy,
    uploadsOut: inout ByteWriter, statistics: inout RenderStatistics
  ) -> [(PlacementKey, Geometry)] {
    var wanted: [(PlacementKey, Geometry)] = []
    var occurrences: [UInt32: UInt32] = [:]
    for placement in placements {
      guard let visible = placement.visible(in: frame.bounds) else { continue }
      let id = kittyID(for: placement.imageID)
      if policy == .none {
        statistics.imagesDeferred += 1
        continue
      }
      if uploads.value(for: id) != nil {
        statistics.imageCacheHits += 1
      } else if policy == .all {
        let bitmap = fitted(placement.bitmap, to: placement.rect, statistics: &statistics)
        KittyCommands.transmit(id: id, bitmap: bitmap, passthrough: placeholders, into: &uploadsOut)
        uploadedSizes[id] = PixelSize(width: bitmap.width, height: bitmap.height)
        let evicted = uploads.insert(placement.imageID, for: id, cost: bitmap.pixels.count)
        for old in evicted { forget(kittyID: old.key, into: &uploadsOut) }
        statistics.imageConversions += 1
      } else {
        statistics.imagesDeferred += 1
        continue
      }
      let cropLeft = visible.x - placement.rect.x
      let cropTop = visible.y - placement.rect.y
      if placeholders {
        let size = Geometry(
          x: 0, y: 0, columns: placement.rect.width, rows: placement.rect.height, source: nil)
        if virtualSizes[id] != size {
          KittyCommands.placeVirtual(
            id: id, columns: size.columns, rows: size.rows, passthrough: true, into: &uploadsOut)
          virtualSizes[id] = size
        }
        let style = CellStyle(foreground: KittyPlaceholder.colour(for: id))
        for row in 0..<visible.height {
          for column in 0..<visible.width {
            guard
              let grapheme = KittyPlaceholder.grapheme(
                row: cropTop + row, column: cropLeft + column)
            else { continue }
            frame.set(Cell(grapheme, style: style), x: visible.x + column, y: visible.y + row)
          }
        }
        continue
      }
      let occurrence = (occurrences[id] ?? 0) + 1
      occurrences[id] = occurrence
      var source: KittyCommands.SourceRect?
      if visible != placement.rect {
        let bitmap =
          uploadedSizes[id]
          ?? PixelSize(width: placement.bitmap.width, height: placement.bitmap.height)
        let rect = placement.rect
        source = KittyCommands.SourceRect(
          x: cropLeft * bitmap.width / rect.width, y: cropTop * bitmap.height / rect.height,
          width: max(1, visible.width * bitmap.width / rect.width),
          height: max(1, visible.height * bitmap.height / rect.height))
      }
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

  /// Places what moved or appeared and hides what left; written after the text of the frame.
  /// Returns whether the cursor moved.
  mutating func place(_ wanted: [(PlacementKey, Geometry)], into out: inout ByteWriter) -> Bool {
    guard !placeholders else { return false }
    var next: [PlacementKey: Geometry] = [:]
    var moved = false
    for (key, geometry) in wanted {
      next[key] = geometry
      if placed[key] == geometry { continue }
      CursorMotion.move(from: nil, to: (geometry.x, geometry.y), into: &out)
      moved = true
      KittyCommands.place(
        id: key.id, placement: key.placement, columns: geometry.columns, rows: geometry.rows,
        source: geometry.source, passthrough: false, into: &out)
    }
    for key in placed.keys where next[key] == nil {
      KittyCommands.hide(id: key.id, placement: key.placement, passthrough: false, into: &out)
    }
    placed = next
    return moved
  }

  /// The bitmap downsampled, side by side, to no more than the tile's pixel size: kitty
  /// scales the upload to the placement's cells anyway, so pixels beyond the tile's are bytes
  /// for nothing. The upload is thus bounded by both the bitmap and the tile, whatever their
  /// shapes. An image keeps the resolution of its first upload if the tile size changes later.
  private func fitted(
    _ bitmap: Bitmap, to rect: CellRect, statistics: inout RenderStatistics
  ) -> Bitmap {
    let width = min(bitmap.width, rect.width * cellSize.width)
    let height = min(bitmap.height, rect.height * cellSize.height)
    guard width > 0, height > 0, width < bitmap.width || height < bitmap.height,
      let smaller = try? Bitmap(
        width: width, height: height,
        pixels: AreaResampler.resample(bitmap, width: width, height: height))
    else { return bitmap }
    statistics.pixelsResampled += width * height
    return smaller
  }

  /// Frees the upload of an image the app will not show again.
  mutating func forget(imageID: UInt64, into out: inout ByteWriter) {
    guard let id = ids[imageID] else { return }
    uploads.remove(id)
    forget(kittyID: id, into: &out)
  }

  private mutating func forget(kittyID id: UInt32, into out: inout ByteWriter) {
    KittyCommands.free(id: id, passthrough: placeholders, into: &out)
    placed = placed.filter { $0.key.id != id }
    virtualSizes[id] = nil
    uploadedSizes[id] = nil
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
