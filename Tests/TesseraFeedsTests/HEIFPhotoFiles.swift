import CVipsShim
import Foundation
import TesseraTestSupport
import TesseraUtilities

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
          $0.baseAddress, Int32(width), Int32(height), 4, format, fields.baseAddress,
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
