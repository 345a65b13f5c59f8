import CVipsShim
import Foundation
import TesseraTestSupport
import TesseraUtilities

@testable import TesseraPhotoFormats
@testable import TesseraPhotoLibrary

/// Real HEIC and AVIF files for the header tests, written by libvips' heifsave (libheif with
/// x265 or aom) from pixels carrying EXIF fields, so the Exif item, its `iloc` and the image's
/// `ispe` are what a real encoder writes.
enum HEIFPhotoFiles {
  /// The savers: HEIC (HEVC) and AVIF (AV1), both through heifsave.
  static let formats = [".heic[Q=60]", ".heif[compression=av1,Q=60]"]

  /// A `width`×`height` photo in `format`, its EXIF saying it was taken with "Pixel 8" on
  /// 1 May 2024 at 14:30 and, unless nil, turned by `orientation`. `noise` fills it with seeded
  /// noise, which compresses badly: the file grows past the header bytes, and libheif puts the
  /// Exif item after the image data.
  static func photo(
    width: Int, height: Int, format: String, orientation: Int? = 6, noise: Bool = false
  ) throws -> [UInt8] {
    var pixels = TestImages.gradientPixels(width: width, height: height)
    if noise {
      var random = SplitMix64(seed: 11)
      for index in pixels.indices where index % 4 != 3 {
        pixels[index] = UInt8(truncatingIfNeeded: random.next())
      }
    }
    var out: UnsafeMutableRawPointer?
    var length = 0
    let status = withFields(orientation: orientation) { fields in
      pixels.withUnsafeBufferPointer {
        tessera_vips_encode_with_metadata(
          $0.baseAddress, $0.count, Int32(width), Int32(height), 4, format, fields.baseAddress,
          fields.count, &out, &length)
      }
    }
    guard status == 0, let out else {
      throw EncodeFailed(description: TestImages.lastError())
    }
    defer { tessera_vips_free(out) }
    return [UInt8](UnsafeRawBufferPointer(start: out, count: length))
  }

  /// libvips could not write the file: its own error text.
  struct EncodeFailed: Error, CustomStringConvertible {
    let description: String
  }

  /// libvips turns `exif-ifdN-Name` string fields into EXIF entries when it saves.
  private static func withFields<Result>(
    orientation: Int?, _ body: (UnsafeBufferPointer<TesseraMetadataField>) -> Result
  ) -> Result {
    "exif-ifd0-Model".withCString { modelName in
      "Pixel 8".withCString { model in
        "exif-ifd2-DateTimeOriginal".withCString { dateName in
          "2024:05:01 14:30:00".withCString { date in
            "orientation".withCString { orientationName in
              var fields = [
                TesseraMetadataField(name: modelName, text: model, number: 0),
                TesseraMetadataField(name: dateName, text: date, number: 0),
              ]
              if let orientation {
                fields.append(
                  TesseraMetadataField(name: orientationName, text: nil, number: Int32(orientation))
                )
              }
              return fields.withUnsafeBufferPointer(body)
            }
          }
        }
      }
    }
  }
}

extension HEIFPhotoFiles {
  /// `file` (as heifsave writes it: ftyp, meta, mdat) with an `irot` of `quarterTurns`
  /// associated with its primary item, as a phone that stores the sensor's pixels and the
  /// turn writes it: the box is added at the end of `ipco`, the primary's `ipma` entry gets
  /// its index, the enclosing sizes grow, and every `iloc` offset into `mdat` moves by the
  /// bytes added. nil when the file is not laid out so.
  static func turned(_ file: [UInt8], quarterTurns: Int) -> [UInt8]? {
    var bytes = file
    let top = ISOBoxes.children(of: 0..<bytes.count, in: bytes, depth: 0)
    guard let meta = top.first(where: { $0.type == "meta" }),
      top.first(where: { $0.type == "mdat" }).map({
        $0.payload.lowerBound > meta.payload.upperBound
      })
        == true
    else { return nil }
    let children = ISOBoxes.children(
      of: (meta.payload.lowerBound + 4)..<meta.payload.upperBound, in: bytes, depth: 1)
    let items = HEIFItems(meta: meta, in: bytes)
    guard let primary = items.primary, let iloc = children.first(where: { $0.type == "iloc" }),
      let iprp = children.first(where: { $0.type == "iprp" })
    else { return nil }
    let properties = ISOBoxes.children(of: iprp.payload, in: bytes, depth: 2)
    guard let ipco = properties.first(where: { $0.type == "ipco" }),
      let ipma = properties.first(where: { $0.type == "ipma" }),
      ipma.payload.lowerBound > ipco.payload.upperBound,
      let entry = ipmaEntry(of: primary, in: ipma, bytes)
    else { return nil }
    let irotIndex = ISOBoxes.children(of: ipco.payload, in: bytes, depth: 3).count + 1
    let wide = bytes[ipma.payload.lowerBound + 3] & 1 == 1
    let index: [UInt8] = wide ? Box.u16(irotIndex) : [UInt8(irotIndex)]
    // From the end backwards, so each position found above still holds when it is used.
    bytes.insert(contentsOf: index, at: entry.end)
    bytes[entry.countAt] += 1
    add(index.count, toU32At: ipma.payload.lowerBound - 8, in: &bytes)
    let irot = Box.irot(quarterTurns)
    bytes.insert(contentsOf: irot, at: ipco.payload.upperBound)
    add(irot.count, toU32At: ipco.payload.lowerBound - 8, in: &bytes)
    let added = irot.count + index.count
    add(added, toU32At: iprp.payload.lowerBound - 8, in: &bytes)
    add(added, toU32At: meta.payload.lowerBound - 8, in: &bytes)
    return moveLocations(in: iloc, by: added, &bytes) ? bytes : nil
  }

  private static func add(_ value: Int, toU32At position: Int, in bytes: inout [UInt8]) {
    var cursor = ByteCursor(bytes, range: position..<bytes.count)
    guard let old = cursor.u32() else { return }
    bytes.replaceSubrange(position..<position + 4, with: Box.u32(old + value))
  }

  /// Where the primary's ipma entry keeps its association count, and where the entry ends.
  private static func ipmaEntry(
    of item: Int, in ipma: ISOBox, _ bytes: [UInt8]
  ) -> (countAt: Int, end: Int)? {
    var cursor = ByteCursor(bytes, range: ipma.payload)
    guard let version = cursor.u8(), let flags = cursor.int(size: 3), let count = cursor.u32()
    else { return nil }
    for _ in 0..<count {
      guard let id = version < 1 ? cursor.u16() : cursor.u32() else { return nil }
      let countAt = cursor.position
      guard let associations = cursor.u8(), cursor.skip(associations * (flags & 1 == 1 ? 2 : 1))
      else { return nil }
      if id == item { return (countAt, cursor.position) }
    }
    return nil
  }

  /// Adds `delta` to every file offset of a construction-method-0 item: its base offset when
  /// it has one, else each extent's offset.
  private static func moveLocations(in iloc: ISOBox, by delta: Int, _ bytes: inout [UInt8]) -> Bool
  {
    var cursor = ByteCursor(bytes, range: iloc.payload)
    guard let version = cursor.u8(), cursor.skip(3), let sizes = cursor.u8(),
      let more = cursor.u8(),
      let count = version < 2 ? cursor.u16() : cursor.u32()
    else { return false }
    let (offsetSize, lengthSize, baseSize) = (sizes >> 4, sizes & 0xF, more >> 4)
    let indexSize = version == 0 ? 0 : more & 0xF
    var patches: [(position: Int, size: Int)] = []
    for _ in 0..<count {
      guard cursor.skip(version < 2 ? 2 : 4) else { return false }
      var method = 0
      if version > 0 { method = (cursor.u16() ?? 0) & 0xF }
      guard cursor.skip(2) else { return false }
      let base = cursor.position
      guard cursor.skip(baseSize), let extents = cursor.u16() else { return false }
      if method == 0, baseSize > 0 { patches.append((base, baseSize)) }
      for _ in 0..<extents {
        guard cursor.skip(indexSize) else { return false }
        if method == 0, baseSize == 0 { patches.append((cursor.position, offsetSize)) }
        guard cursor.skip(offsetSize + lengthSize) else { return false }
      }
    }
    for patch in patches {
      var field = ByteCursor(bytes, range: patch.position..<bytes.count)
      guard let old = field.unsigned(size: patch.size) else { return false }
      let moved = Box.u64(old + UInt64(delta)).suffix(patch.size)
      bytes.replaceSubrange(patch.position..<patch.position + patch.size, with: moved)
    }
    return true
  }
}
