import Foundation
import TesseraUtilities

/// The photos `tessera bench render` cuts its tiles from: 640×480 JPEGs (Q=88) whose every
/// channel is Perlin noise at three scales (cells of 160, 40 and 10 px: a scene's large
/// shapes, its objects and their texture) under a sensor's grain (Gaussian, σ 3), each channel
/// its own seed. At a tile's size that is what a photo's thumbnail has: structure at every
/// scale, which a drawn gradient lacks (it compresses many times better) and a downscaled
/// 12-MP field of noise has too little of (it turns to noise). Made once with libvips' `vips`
/// command and kept in `$XDG_CACHE_HOME/tessera/bench-render/photos-v1`.
struct RenderPhotos {
  static let count = 24
  static let width = 640
  static let height = 480

  let folder = CacheHome.url.appendingPathComponent("tessera/bench-render/photos-v1")

  /// The photos, made first when missing. O(count) runs of `vips` the first time.
  func ensure() throws -> [URL] {
    let files = (0..<Self.count).map {
      folder.appendingPathComponent(String(format: "photo-%02d.jpg", $0))
    }
    let missing = files.enumerated().filter { !FileManager.default.fileExists(atPath: $0.1.path) }
    guard !missing.isEmpty else { return files }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    FileHandle.standardError.write(
      Data("tessera bench render: generating \(missing.count) photos in \(folder.path)…\n".utf8))
    for (index, file) in missing { try make(index, at: file) }
    return files
  }

  private func make(_ index: Int, at file: URL) throws {
    let work = folder.appendingPathComponent(".work-\(index)")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: work) }
    func path(_ name: String) -> String { work.appendingPathComponent("\(name).v").path }
    let (width, height) = (String(Self.width), String(Self.height))
    for band in 0..<3 {
      // Octaves: cell size, contrast; the largest also sets the channel's mean.
      let octaves = [(160, 90, 128 + (index * 37 + band * 71) % 60 - 30), (40, 35, 0), (10, 12, 0)]
      var sum: String?
      for (octave, (cell, contrast, mean)) in octaves.enumerated() {
        let seed = String(index * 9 + band * 3 + octave + 1)
        let raw = path("b\(band)-o\(octave)")
        try FolderBenchProcess.run(
          ["vips", "perlin", raw, width, height, "--cell-size", String(cell), "--seed", seed])
        let scaled = path("b\(band)-s\(octave)")
        try FolderBenchProcess.run(["vips", "linear", raw, scaled, String(contrast), String(mean)])
        if let previous = sum {
          let next = path("b\(band)-sum\(octave)")
          try FolderBenchProcess.run(["vips", "add", previous, scaled, next])
          sum = next
        } else {
          sum = scaled
        }
      }
      let grain = path("b\(band)-grain")
      try FolderBenchProcess.run(
        [
          "vips", "gaussnoise", grain, width, height, "--mean", "0", "--sigma", "3", "--seed",
          String(index * 3 + band + 500),
        ])
      try FolderBenchProcess.run(["vips", "add", sum ?? grain, grain, path("b\(band)-grained")])
      try FolderBenchProcess.run([
        "vips", "cast", path("b\(band)-grained"), path("b\(band)"), "uchar",
      ])
    }
    try FolderBenchProcess.run(
      ["vips", "bandjoin", "\(path("b0")) \(path("b1")) \(path("b2"))", path("rgb")])
    let temporary = folder.appendingPathComponent(".tmp-\(file.lastPathComponent)")
    try FolderBenchProcess.run(["vips", "copy", path("rgb"), temporary.path + "[Q=88,strip]"])
    try FileManager.default.moveItem(at: temporary, to: file)
  }
}
