import CJPEG
import CVipsShim
import Foundation
import TesseraBenchSupport
import TesseraTerminal

/// Sixel size and fidelity, ours against chafa's, on the same source bitmaps shown at the
/// same pixel size: bytes of the sixel sequences and PSNR (dB) of the pixels they paint
/// against the source area-resampled to that size (both decoded by `SixelDecoder`, as a
/// terminal paints them). chafa gets the same pixels as PPM files, in one run, and is asked
/// for `columns × rows` cells stretched, which at its assumed 8×8-pixel cells is the tile's
/// pixel size; when its image comes out another size, its reference is resampled to that.
struct SixelFidelity {
  struct Figures {
    var bytes: Int
    /// Over every opaque pixel's RGB values of every image (one PSNR of the summed error).
    var psnr: Double
  }

  var ours: Figures
  /// Nil when chafa is not installed at the given path.
  var chafa: Figures?
  /// The same tiles as iTerm2's inline images: each tile's JPEG, decoded by libjpeg-turbo.
  var iTerm2: Figures

  /// Measures `bitmaps` shown as tiles of `pixelWidth × pixelHeight` (`columns × rows` cells).
  static func measure(
    _ bitmaps: [Bitmap], pixelWidth: Int, pixelHeight: Int, columns: Int, rows: Int,
    chafa chafaPath: String
  ) throws -> SixelFidelity {
    // Both encoders get the tile's view of each photo: its centre at the tile's aspect (a tile
    // crops, never stretches), so chafa's `--stretch` to the tile's cells stretches nothing.
    let bitmaps = try bitmaps.map {
      try SixelMeasurement.tileView($0, width: pixelWidth, height: pixelHeight)
    }
    var ourBytes = 0
    var ourError = 0.0
    var ourSamples = 0
    for bitmap in bitmaps {
      let reference = SixelMeasurement.referencePixels(
        bitmap, width: pixelWidth, height: pixelHeight)
      let sixel = SixelMeasurement.encode(reference, width: pixelWidth, height: pixelHeight)
      ourBytes += sixel.count
      guard let image = SixelDecoder.decode(sixel).first,
        let error = SixelDecoder.squaredError(
          image, reference: reference, width: pixelWidth, height: pixelHeight)
      else { continue }
      ourError += error.sum
      ourSamples += error.samples
    }
    let ours = Figures(
      bytes: ourBytes, psnr: SixelDecoder.psnr(squaredError: ourError, samples: ourSamples))
    let iTerm2 = try iTerm2Figures(bitmaps, width: pixelWidth, height: pixelHeight)
    guard FileManager.default.isExecutableFile(atPath: chafaPath) else {
      return SixelFidelity(ours: ours, chafa: nil, iTerm2: iTerm2)
    }
    let output = try runChafa(
      chafaPath, bitmaps: bitmaps,
      arguments: [
        "--size", "\(columns)x\(rows)", "--stretch", "--colors", "full", "--format", "sixels",
      ])
    let images = SixelDecoder.decode(output)
    var chafaError = 0.0
    var chafaSamples = 0
    for (bitmap, image) in zip(bitmaps, images) where image.width > 0 && image.height > 0 {
      let reference = SixelMeasurement.referencePixels(
        bitmap, width: image.width, height: image.height)
      guard
        let error = SixelDecoder.squaredError(
          image, reference: reference, width: image.width, height: image.height)
      else { continue }
      chafaError += error.sum
      chafaSamples += error.samples
    }
    // An image chafa did not produce counts as all black.
    for bitmap in bitmaps.dropFirst(images.count) {
      let reference = SixelMeasurement.referencePixels(
        bitmap, width: pixelWidth, height: pixelHeight)
      let empty = SixelDecoder.Image(width: 0, height: 0, pixels: [])
      if let error = SixelDecoder.squaredError(
        empty, reference: reference, width: pixelWidth, height: pixelHeight)
      {
        chafaError += error.sum
        chafaSamples += error.samples
      }
    }
    return SixelFidelity(
      ours: ours,
      chafa: Figures(
        bytes: output.count,
        psnr: SixelDecoder.psnr(squaredError: chafaError, samples: chafaSamples)),
      iTerm2: iTerm2)
  }

  /// Bytes and PSNR of the tiles as iTerm2's inline images (the files, before base64).
  private static func iTerm2Figures(
    _ bitmaps: [Bitmap], width: Int, height: Int
  ) throws -> Figures {
    var bytes = 0
    var error = 0.0
    var samples = 0
    for bitmap in bitmaps {
      let reference = SixelMeasurement.referencePixels(bitmap, width: width, height: height)
      guard
        let file = ITerm2Image.encode(
          rgba: reference, width: width, height: height, jpegQuality: ITerm2Image.photoQuality)
      else { throw BenchFailure("libjpeg-turbo could not encode a tile") }
      bytes += file.count
      let decoded = try decodeJPEG(file)
      guard
        let tileError = SixelDecoder.squaredError(
          decoded, reference: reference, width: width, height: height)
      else { throw BenchFailure("a tile's JPEG decoded to another size") }
      error += tileError.sum
      samples += tileError.samples
    }
    return Figures(bytes: bytes, psnr: SixelDecoder.psnr(squaredError: error, samples: samples))
  }

  /// A JPEG's pixels by libjpeg-turbo, as a terminal would decode it.
  private static func decodeJPEG(_ file: [UInt8]) throws -> SixelDecoder.Image {
    var pixels: UnsafeMutablePointer<UInt8>?
    var length = 0
    var width: Int32 = 0
    var height: Int32 = 0
    var message = [CChar](repeating: 0, count: 200)
    let status = file.withUnsafeBufferPointer {
      tessera_jpeg_decode_rgba(
        $0.baseAddress, $0.count, 16_384, 16_384, 16_384, 1 << 28, &pixels, &length, &width,
        &height, &message, message.count)
    }
    guard status == 0, let pixels else { throw BenchFailure("a tile's JPEG did not decode") }
    defer { tessera_jpeg_free(pixels) }
    return SixelDecoder.Image(
      width: Int(width), height: Int(height),
      pixels: Array(UnsafeBufferPointer(start: pixels, count: length)))
  }

  /// chafa's output for `bitmaps` written as PPM files into a temporary folder (removed).
  private static func runChafa(
    _ path: String, bitmaps: [Bitmap], arguments: [String]
  ) throws
    -> [UInt8]
  {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tessera-sixel-fidelity-\(ProcessInfo.processInfo.processIdentifier)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var files: [String] = []
    for (index, bitmap) in bitmaps.enumerated() {
      let url = directory.appendingPathComponent("image\(index).ppm")
      try TileScene.ppm(bitmap).write(to: url)
      files.append(url.path)
    }
    return try BenchSpawn.runCapturingBytes([path] + arguments + files).output
  }

}
