import Foundation
import TesseraTestSupport

@testable import TesseraImages

/// A local original in a fresh folder, with its own thumbnail folders next to it (never the
/// user's), and what the thumbnail standard knows it by.
struct ThumbnailScene {
  private let owned = TemporaryFolder.Owned(prefix: "tessera-thumbnails")
  var folder: URL { owned.url }
  var thumbnails: ThumbnailCache {
    ThumbnailCache(directory: folder.appendingPathComponent("cache/thumbnails"))
  }
  var original: URL { folder.appendingPathComponent("photos/red photo.jpg") }

  /// Writes a red 400×300 JPEG as the original.
  init() throws {
    try FileManager.default.createDirectory(
      at: original.deletingLastPathComponent(), withIntermediateDirectories: true)
    let red = try TestImages.encode(
      TestImages.solidPixels(width: 400, height: 300, colour: RGB(220, 20, 20)), width: 400,
      height: 300, as: ".jpg[Q=90]")
    try red.write(to: original)
  }

  var uri: String { ThumbnailURI(path: original.path).uri }
  var hash: String { ThumbnailURI(path: original.path).hash }

  /// The original's modification time in whole seconds, from `stat`.
  var modified: Int {
    var status = stat()
    _ = stat(original.path, &status)
    return Int(status.st_mtim.tv_sec)
  }

  func url(_ size: String) -> URL {
    thumbnails.directory.appendingPathComponent("\(size)/\(hash).png")
  }

  /// A thumbnail as another program would write it, by hand from the specification.
  func writeForeign(
    _ size: String, width: Int, height: Int, colour: (UInt8, UInt8, UInt8),
    uri: String? = nil, modified: Int? = nil, kind: HandMadePNG.TextChunk = .tEXt
  ) throws {
    let png = HandMadePNG.solid(
      width: width, height: height, red: colour.0, green: colour.1, blue: colour.2,
      text: [
        ("Thumb::URI", uri ?? self.uri), ("Thumb::MTime", String(modified ?? self.modified)),
        ("Software", "a file manager"),
      ], kind: kind)
    let file = url(size)
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try png.write(to: file)
  }

  func pipeline() -> ImagePipeline {
    makePipeline(HeldDataLoader(), thumbnails: thumbnails)
  }

  func request(
    _ width: Int, _ height: Int, _ mode: ImageRequest.ContentMode = .aspectFill
  )
    -> ImageRequest
  {
    ImageRequest(
      url: original, targetSize: PixelSize(width: width, height: height), contentMode: mode,
      source: .localFolder)
  }

  /// Permission bits of `url` (`stat`), e.g. 0o600.
  static func mode(_ url: URL) -> Int {
    var status = stat()
    _ = stat(url.path, &status)
    return Int(status.st_mode) & 0o777
  }

  func remove() { try? FileManager.default.removeItem(at: folder) }
}

extension Image {
  /// The colour at the centre.
  var centre: (UInt8, UInt8, UInt8) {
    let i = ((height / 2) * width + width / 2) * 4
    return (pixels[i], pixels[i + 1], pixels[i + 2])
  }

  /// Whether the centre is near `colour` (JPEG and resampling move channels a little).
  func centreIs(_ colour: (UInt8, UInt8, UInt8)) -> Bool {
    let c = centre
    return abs(Int(c.0) - Int(colour.0)) < 24 && abs(Int(c.1) - Int(colour.1)) < 24
      && abs(Int(c.2) - Int(colour.2)) < 24
  }
}
