import TesseraUtilities

/// Where an item's bytes lie in a HEIF file: one extent, counted from the file's start.
package struct HEIFExtent: Equatable, Sendable {
  /// 0…`FeedLimits.maxLocalFileBytes`.
  package var offset: Int
  /// 1…`FeedLimits.maxLocalFileBytes`; nil when the item runs to the end of the file (an
  /// extent length of 0).
  package var length: Int?

  /// The extent an iloc states, when base offset + extent offset and the length are all
  /// within the largest file read; nil otherwise. Checked before they are added.
  init?(baseOffset: UInt64, offset: UInt64, length: UInt64) {
    let limit = UInt64(FeedLimits.maxLocalFileBytes)
    guard baseOffset <= limit, offset <= limit - baseOffset, length <= limit else { return nil }
    self.offset = Int(baseOffset + offset)
    self.length = length == 0 ? nil : Int(length)
  }

  /// The bytes to read of a file of `fileSize` bytes: the extent cut to the file's end and to
  /// `limit` bytes; nil when it starts at or past the end.
  package func range(inFileOf fileSize: Int, limit: Int) -> Range<Int>? {
    guard offset < fileSize else { return nil }
    let count = min(length ?? Int.max, fileSize - offset, max(0, limit))
    return count > 0 ? offset..<(offset + count) : nil
  }
}

/// An item property of a HEIF file's `ipco` that changes the size an image shows at.
enum HEIFProperty: Equatable {
  /// `ispe`: the coded image's width and height.
  case size(width: Int, height: Int)
  /// `irot`: quarter turns anticlockwise (0…3).
  case rotation(quarterTurns: Int)
  /// `clap`: the clean aperture's width and height, rounded as libheif rounds them.
  case cleanAperture(width: Int, height: Int)
  /// Anything else (`imir`, `colr`, `hvcC`, `pixi`, …): no effect on the size.
  case other
}

/// One `iref` reference: `from` refers to each of `to` (`dimg`: derived from; `cdsc`:
/// describes).
struct HEIFReference: Equatable {
  var type: FourCC
  var from: Int
  var to: [Int]
}

/// The item tables of a HEIF file's `meta` box (ISO/IEC 23008-12), read from hostile bytes:
/// the primary item (`pitm`), item types (`iinf`), single-extent file locations (`iloc`),
/// references (`iref`) and properties (`iprp`). Each table is bounded by `FeedLimits`; what
/// does not parse is left out, so the tables may be partial but never wrong-sized.
///
/// - Complexity: O(bytes of `meta`), with at most `FeedLimits.maxHEIFItems` items per table,
///   `FeedLimits.maxHEIFExtents` extents and `FeedLimits.maxHEIFReferences` references.
struct HEIFItems {
  var primary: Int?
  /// Item IDs and types in the order `iinf` lists them.
  var types: [(id: Int, type: FourCC)] = []
  /// The `mime` items whose content type is XMP's (`application/rdf+xml`), in that order.
  var xmpItems: [Int] = []
  /// Items stored in this file (data reference 0) by offset (construction method 0), in one
  /// extent.
  var locations: [Int: HEIFExtent] = [:]
  var references: [HEIFReference] = []
  /// `ipco`'s properties, in order (`ipma` indices count from 1 into this).
  var properties: [HEIFProperty] = []
  /// Each item's property indices (0-based) in the order `ipma` associates them.
  var associations: [Int: [Int]] = [:]

  /// Longest item name or content type read.
  static let maxNameBytes = 256

  init(meta: ISOBox, in bytes: [UInt8]) {
    var cursor = ByteCursor(bytes, range: meta.payload)
    guard cursor.fullBoxVersion() == 0 else { return }
    let children = ISOBoxes.children(
      of: cursor.position..<meta.payload.upperBound, in: bytes, depth: 1)
    for box in children {
      switch box.type {
      case "pitm": primary = Self.primaryItem(box, bytes)
      case "iinf": readItemInfo(box, bytes)
      case "iloc": readLocations(box, bytes)
      case "iref": readReferences(box, bytes)
      case "iprp": readProperties(box, bytes)
      default: break
      }
    }
  }

  /// The properties associated with `item`, in order.
  func properties(of item: Int) -> [HEIFProperty] {
    (associations[item] ?? []).compactMap { properties.indices.contains($0) ? properties[$0] : nil }
  }

  private static func primaryItem(_ box: ISOBox, _ bytes: [UInt8]) -> Int? {
    var cursor = ByteCursor(bytes, range: box.payload)
    guard let version = cursor.fullBoxVersion() else { return nil }
    return version == 0 ? cursor.u16() : cursor.u32()
  }

  private mutating func readItemInfo(_ box: ISOBox, _ bytes: [UInt8]) {
    var cursor = ByteCursor(bytes, range: box.payload)
    guard let version = cursor.fullBoxVersion(), cursor.skip(version == 0 ? 2 : 4) else { return }
    let entries = ISOBoxes.children(
      of: cursor.position..<box.payload.upperBound, in: bytes, depth: 2)
    for entry in entries where entry.type == "infe" && types.count < FeedLimits.maxHEIFItems {
      var item = ByteCursor(bytes, range: entry.payload)
      // Versions 0 and 1 predate item types: they name MIME content, never an image or Exif.
      guard let version = item.fullBoxVersion(), version >= 2,
        let id = version == 2 ? item.u16() : item.u32(), item.skip(2), let type = item.fourCC()
      else { continue }
      types.append((id, type))
      // A `mime` item: its name, then its content type, each ending in NUL.
      if type == "mime", item.nulTerminated(limit: Self.maxNameBytes) != nil,
        let contentType = item.nulTerminated(limit: Self.maxNameBytes),
        contentType.elementsEqual("application/rdf+xml".utf8)
      {
        xmpItems.append(id)
      }
    }
  }

  private mutating func readLocations(_ box: ISOBox, _ bytes: [UInt8]) {
    var cursor = ByteCursor(bytes, range: box.payload)
    guard let version = cursor.fullBoxVersion(), version <= 2, let sizes = cursor.u8(),
      let moreSizes = cursor.u8()
    else { return }
    let offsetSize = sizes >> 4
    let lengthSize = sizes & 0xF
    let baseOffsetSize = moreSizes >> 4
    let indexSize = version == 0 ? 0 : moreSizes & 0xF
    let allowed = [0, 4, 8]
    guard [offsetSize, lengthSize, baseOffsetSize, indexSize].allSatisfy(allowed.contains),
      let itemCount = version < 2 ? cursor.u16() : cursor.u32()
    else { return }
    var extentsWalked = 0
    for _ in 0..<min(itemCount, FeedLimits.maxHEIFItems) {
      guard let id = version < 2 ? cursor.u16() : cursor.u32() else { return }
      var method = 0
      if version > 0 {
        guard let field = cursor.u16() else { return }
        method = field & 0xF
      }
      guard let reference = cursor.u16(), let base = cursor.unsigned(size: baseOffsetSize),
        let extentCount = cursor.u16(), extentCount <= FeedLimits.maxHEIFExtents - extentsWalked
      else { return }
      extentsWalked += extentCount
      var first: (offset: UInt64, length: UInt64)?
      for _ in 0..<extentCount {
        guard cursor.skip(indexSize), let offset = cursor.unsigned(size: offsetSize),
          let length = cursor.unsigned(size: lengthSize)
        else { return }
        first = first ?? (offset, length)
      }
      if method == 0, reference == 0, extentCount == 1, let first,
        let extent = HEIFExtent(baseOffset: base, offset: first.offset, length: first.length)
      {
        locations[id] = extent
      }
    }
  }

  private mutating func readReferences(_ box: ISOBox, _ bytes: [UInt8]) {
    var cursor = ByteCursor(bytes, range: box.payload)
    guard let version = cursor.fullBoxVersion() else { return }
    let idSize = version == 0 ? 2 : 4
    var total = 0
    for reference in ISOBoxes.children(
      of: cursor.position..<box.payload.upperBound, in: bytes, depth: 2)
    {
      var entry = ByteCursor(bytes, range: reference.payload)
      guard let from = entry.int(size: idSize), let count = entry.u16(),
        count <= FeedLimits.maxHEIFReferences - total
      else { return }
      total += count
      let to = (0..<count).compactMap { _ in entry.int(size: idSize) }
      references.append(HEIFReference(type: reference.type, from: from, to: to))
    }
  }

  private mutating func readProperties(_ box: ISOBox, _ bytes: [UInt8]) {
    for child in ISOBoxes.children(of: box.payload, in: bytes, depth: 2) {
      switch child.type {
      case "ipco" where properties.isEmpty:
        properties = ISOBoxes.children(of: child.payload, in: bytes, depth: 3).map {
          Self.property($0, bytes)
        }
      case "ipma": readAssociations(child, bytes)
      default: break
      }
    }
  }

  private static func property(_ box: ISOBox, _ bytes: [UInt8]) -> HEIFProperty {
    var cursor = ByteCursor(bytes, range: box.payload)
    switch box.type {
    case "ispe":
      guard cursor.fullBoxVersion() != nil, let width = cursor.u32(), let height = cursor.u32()
      else { return .other }
      return .size(width: width, height: height)
    case "irot":
      guard let angle = cursor.u8() else { return .other }
      return .rotation(quarterTurns: angle & 3)
    case "clap":
      guard let widthN = cursor.u32(), let widthD = cursor.u32(), let heightN = cursor.u32(),
        let heightD = cursor.u32(), widthD > 0, heightD > 0
      else { return .other }
      // libheif's Fraction::round: (n + d/2) / d. Both are below 2^32: no overflow.
      return .cleanAperture(
        width: (widthN + widthD / 2) / widthD, height: (heightN + heightD / 2) / heightD)
    default:
      return .other
    }
  }

  private mutating func readAssociations(_ box: ISOBox, _ bytes: [UInt8]) {
    var cursor = ByteCursor(bytes, range: box.payload)
    guard let version = cursor.u8(), let flags = cursor.int(size: 3),
      let entryCount = cursor.u32()
    else { return }
    let wideIndices = flags & 1 == 1
    for _ in 0..<min(entryCount, FeedLimits.maxHEIFItems) {
      guard associations.count < FeedLimits.maxHEIFItems,
        let id = version < 1 ? cursor.u16() : cursor.u32(), let count = cursor.u8()
      else { return }
      var indices: [Int] = []
      for _ in 0..<count {
        guard let field = wideIndices ? cursor.u16() : cursor.u8() else { return }
        let index = field & (wideIndices ? 0x7FFF : 0x7F)  // the top bit says "essential"
        if index > 0 { indices.append(index - 1) }
      }
      associations[id, default: []] += indices
    }
  }
}
