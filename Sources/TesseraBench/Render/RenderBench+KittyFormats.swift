import Foundation
import TesseraBenchSupport
import TesseraTerminal

extension RenderBenchmark {
  /// Kitty upload bytes per full screen (60 tiles of 160×72 px, the bench's tile) in each
  /// payload format, on two kinds of content: the scene's drawn tiles (flat colours,
  /// gradients) and photo-like ones (gradients under sensor-like noise, soft shapes), which
  /// compress far less. The renderer uses the format that wins on photos.
  func measureKittyFormats(into report: inout BenchReport) {
    let tiles = 60
    let width = 160
    let height = 72
    var photos: [Bitmap] = []
    var drawn: [Bitmap] = []
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func noise() -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(state >> 59) - 16  // −16…15
    }
    for tile in 0..<tiles {
      let hue = tile * 37 % 256
      if let photo = try? Bitmap.generated(
        width: width, height: height,
        { x, y in
          let disc =
            (x - 50 - tile) * (x - 50 - tile) + (y - 36) * (y - 36) < 900 + tile * 10
          let n = noise() / 2
          let r = (disc ? 200 : (x * 255 / width + hue) % 256) + n
          let g = (disc ? 90 : y * 255 / height) + n
          let b = (x + y + hue) % 256 / 2 + 40 - n
          return (UInt8(clamping: r), UInt8(clamping: g), UInt8(clamping: b), 255)
        })
      {
        photos.append(photo)
      }
      if let flat = try? Bitmap.generated(
        width: width, height: height,
        { x, y in
          (x / 16 + y / 16 + tile) % 5 == 0
            ? (250, 250, 250, 255)
            : (UInt8(truncatingIfNeeded: x + hue), UInt8(truncatingIfNeeded: y * 3 / 2), 90, 255)
        })
      {
        drawn.append(flat)
      }
    }
    for (content, bitmaps) in [("photo", photos), ("drawn", drawn)] {
      var raw = 0.0
      var pngMilliseconds = 0.0
      for format in KittyPayloadFormat.allCases {
        let clock = ContinuousClock()
        let start = clock.now
        let bytes = Double(bitmaps.reduce(0) { $0 + format.uploadBytes(for: $1) })
        let milliseconds = (clock.now - start) / .milliseconds(1)
        if format == .raw { raw = bytes }
        if format == .png { pngMilliseconds = milliseconds }
        Self.addWire("kitty.format.\(content).\(format).full", bytes: bytes, into: &report)
        report.add("kitty.format.\(content).\(format).encode_ms", milliseconds, "ms")
        if format != .raw {
          report.ratio("kitty.format.\(content).\(format).vs_raw", ours: bytes, baseline: raw)
        }
        if format == .palettePNG {
          report.ratio(
            "kitty.format.\(content).\(format).encode_vs_png", ours: milliseconds,
            baseline: pngMilliseconds)
        }
      }
    }
    report.note(
      "kitty.format.*: \(tiles) uploads of \(width)x\(height) px per payload format (raw "
        + "RGB f=24, o=z zlib RGB, PNG f=100, palette PNG f=100), photo-like and drawn content, "
        + "and the time to encode them all; the renderer sends PNG, palette PNG over a slow link")
  }
}

extension RenderBenchmark {
  /// The first full frame when kitty runs on this machine (the same-machine probe answered):
  /// uploads are temporary files and only their paths cross the terminal's input. The files
  /// the bench writes are deleted after (kitty, had it read them, would have).
  func measureKittyLocalFiles(scene: TileScene, into report: inout BenchReport) {
    let first = scene.frame(atRow: 0)
    let renderer = TerminalRenderer(
      capabilities: TerminalCapabilities(
        graphics: .kitty, synchronizedOutput: true, cellPixelSize: scene.cellPixelSize,
        kittyLocalFiles: true))
    var samples = Samples()
    let bytes = samples.measure { renderer.render(first.frame, images: first.images) }.count
    report.add("kitty.local_files.full.ms", samples.median / 1e6, "ms")
    Self.addWire("kitty.local_files.full", bytes: Double(bytes), into: &report)
    let prefix = "tessera-tty-graphics-protocol-\(ProcessInfo.processInfo.processIdentifier)-"
    for folder in ["/dev/shm", NSTemporaryDirectory()] {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
      for name in names where name.hasPrefix(prefix) {
        try? FileManager.default.removeItem(
          atPath: (folder as NSString).appendingPathComponent(name))
      }
    }
  }
}
