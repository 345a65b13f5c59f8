import ArgumentParser
import CVipsShim
import Foundation
import TesseraBenchSupport
import TesseraTerminal

/// `tessera bench render`: what a frame costs per image protocol, in time and bytes, on a
/// full 200×60 screen of 20×10-cell image tiles: the first (cold) frame, a scroll by one row,
/// and a fling (6 rows a frame), with and without debouncing, against the chafa binary on the
/// same images at the same cell size when it is installed (its scroll is a full redraw: it has
/// no frame to diff against).
struct RenderBench: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "render",
    abstract: "Terminal frame encoding per protocol: time and bytes per frame, vs chafa.")

  @Flag(help: "Print one JSON object instead of tables.") var json = false
  @Option(help: "Frames measured per scroll scenario.") var frames = 60
  @Option(help: "Path of the chafa binary to compare with.") var chafa = "/usr/bin/chafa"

  func validate() throws {
    guard frames > 0 else { throw ValidationError("--frames must be positive") }
  }

  func run() async throws {
    try RenderBenchmark(frames: frames, chafa: chafa).run().print(json: json)
  }
}

/// What a frame costs per image protocol, against chafa on the same images (see
/// `RenderBench`).
struct RenderBenchmark {
  /// Frames measured per scroll scenario.
  let frames: Int
  /// Path of the chafa binary; no baseline ratios when it is not there.
  let chafa: String

  func run() throws -> BenchReport {
    var report = BenchReport(benchmark: "render")
    // chafa's CLI cannot be told the cell size and assumes 8×8 pixels when not on a terminal:
    // sixel is measured at that size on both sides so the pixel counts match.
    let scene = try TileScene(cellPixelSize: PixelSize(width: 8, height: 8))
    report.note(
      "screen \(scene.width)x\(scene.height) cells, tiles \(scene.tileColumns)x\(scene.tileRows) "
        + "cells (\(scene.frame(atRow: 0).images.count) on screen), images \(scene.imagePixels)x\(scene.imagePixels) "
        + "px RGBA, sixel cell 8x8 px")
    var ours: [GraphicsProtocol: WireCost] = [:]
    for graphics in GraphicsProtocol.allCases {
      ours[graphics] = measure(graphics.rawValue, graphics: graphics, scene: scene, into: &report) {
        TerminalRenderer(
          graphics: graphics, synchronizedOutput: true, cellPixelSize: scene.cellPixelSize)
      }
    }
    // Inside tmux: every image command wrapped in passthrough (ESCs doubled), placed at the
    // pane's cell; kitty 0.28+ by placeholder cells instead.
    for (name, graphics, placeholders) in Self.tmuxPaths {
      let cost = measure(name, graphics: graphics, scene: scene, into: &report) {
        TerminalRenderer(
          graphics: graphics, synchronizedOutput: true, insideTmux: true, passthrough: true,
          kittyPlaceholders: placeholders, cellPixelSize: scene.cellPixelSize)
      }
      if let direct = ours[graphics] {
        report.ratio("\(name).full.bytes_vs_direct", ours: cost.full, baseline: direct.full)
      }
    }
    measureKittyFormats(into: &report)
    measureKittyLocalFiles(scene: scene, into: &report)
    let chafaMeasures = try measureChafa(scene: scene, into: &report)
    for (graphics, baseline) in chafaMeasures.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
      guard let mine = ours[graphics] else { continue }
      let name = graphics.rawValue
      report.ratio(
        "\(name).full.time_vs_chafa", ours: mine.fullMilliseconds,
        baseline: baseline.milliseconds)
      report.ratio(
        "\(name).scroll1.time_vs_chafa", ours: mine.scrollMilliseconds,
        baseline: baseline.milliseconds)
      // chafa has no frame to diff against: its scroll is a full frame, its fling second
      // sixty of them.
      report.ratio("\(name).full.bytes_vs_chafa", ours: mine.full, baseline: baseline.bytes)
      report.ratio("\(name).scroll1.bytes_vs_chafa", ours: mine.scroll, baseline: baseline.bytes)
      report.ratio(
        "\(name).fling_second.bytes_vs_chafa", ours: mine.flingSecond,
        baseline: baseline.bytes * Self.framesPerSecond)
    }
    if chafaMeasures.isEmpty { report.note("chafa not found at \(chafa): no baseline ratios") }
    try measureSixelFidelity(scene: scene, sixel: ours[.sixel], into: &report)
    report.note(
      "*.at_10mbit.s: the seconds a figure's bytes take on a 10 Mbit/s link (SSH over a "
        + "modest connection); a fling second is \(Int(Self.framesPerSecond)) frames of 6 rows")
    return report
  }

  /// The ways images reach a terminal outside tmux: name, protocol, kitty placeholders.
  static let tmuxPaths: [(String, GraphicsProtocol, Bool)] = [
    ("tmux.kitty_placeholders", .kitty, true), ("tmux.kitty_passthrough", .kitty, false),
    ("tmux.sixel_passthrough", .sixel, false), ("tmux.iterm2_passthrough", .iterm2, false),
  ]

  /// Frames a second the fling figures assume (the gallery's cap).
  static let framesPerSecond = 60.0
  /// The link the `at_10mbit` figures are for, in bytes a second.
  static let linkBytesPerSecond = 10e6 / 8

  struct Measure {
    var milliseconds: Double
    var bytes: Double
  }

  /// Bytes a protocol puts on the wire per full frame, per one-row scroll and per second of
  /// fling, with the times of the first two.
  /// Sixel fidelity: our encoder and chafa's on the first screen's images at the tile's pixel
  /// size, bytes and PSNR against the source pixels (`SixelFidelity`).
  private func measureSixelFidelity(
    scene: TileScene, sixel: WireCost?, into report: inout BenchReport
  ) throws {
    let tiles = scene.frame(atRow: 0).images.map(\.bitmap)
    let fidelity = try SixelFidelity.measure(
      tiles, pixelWidth: scene.tileColumns * scene.cellPixelSize.width,
      pixelHeight: (scene.tileRows - 1) * scene.cellPixelSize.height,
      columns: scene.tileColumns, rows: scene.tileRows - 1, chafa: chafa)
    report.add("sixel.tiles.bytes", Double(fidelity.ours.bytes), "bytes")
    report.add("sixel.tiles.psnr", fidelity.ours.psnr, "dB")
    if let theirs = fidelity.chafa {
      report.add("chafa.sixel.tiles.bytes", Double(theirs.bytes), "bytes")
      report.add("chafa.sixel.tiles.psnr", theirs.psnr, "dB")
      report.ratio(
        "sixel.tiles.bytes_vs_chafa", ours: Double(fidelity.ours.bytes),
        baseline: Double(theirs.bytes))
      report.add("sixel.tiles.psnr_minus_chafa", fidelity.ours.psnr - theirs.psnr, "dB")
    }
    if let sixel {
      report.ratio("sixel.scroll1.bytes_vs_full", ours: sixel.scroll, baseline: sixel.full)
    }
    report.add("iterm2.tiles.bytes", Double(fidelity.iTerm2.bytes), "bytes")
    report.add("iterm2.tiles.psnr", fidelity.iTerm2.psnr, "dB")
    report.ratio(
      "iterm2.tiles.bytes_vs_sixel", ours: Double(fidelity.iTerm2.bytes),
      baseline: Double(fidelity.ours.bytes))
    report.add("iterm2.tiles.psnr_minus_sixel", fidelity.iTerm2.psnr - fidelity.ours.psnr, "dB")
  }

  struct WireCost {
    var full: Double
    var scroll: Double
    var flingSecond: Double
    var fullMilliseconds: Double
    var scrollMilliseconds: Double
  }

  /// Adds `bytes` and the seconds they take at 10 Mbit/s.
  static func addWire(_ name: String, bytes: Double, into report: inout BenchReport) {
    report.add("\(name).bytes", bytes, "bytes")
    report.add("\(name).at_10mbit.s", bytes / linkBytesPerSecond, "s")
  }

  private func measure(
    _ name: String, graphics: GraphicsProtocol, scene: TileScene,
    into report: inout BenchReport, renderer: () -> TerminalRenderer
  ) -> WireCost {
    // Full screen from cold caches: a fresh renderer each time.
    var full = Samples()
    var fullBytes = 0
    let first = scene.frame(atRow: 0)
    for _ in 0..<5 {
      let fresh = renderer()
      fullBytes = full.measure { fresh.render(first.frame, images: first.images) }.count
    }
    report.add("\(name).full.ms", full.median / 1e6, "ms")
    Self.addWire("\(name).full", bytes: Double(fullBytes), into: &report)

    // Scroll by one row at a time, warm renderer; tiles entering are converted on arrival.
    let scrolling = renderer()
    _ = scrolling.render(first.frame, images: first.images)
    let steps = (1...frames).map { scene.frame(atRow: $0) }
    var scroll = Samples()
    var scrollBytes = 0
    for step in steps {
      scrollBytes += scroll.measure { scrolling.render(step.frame, images: step.images) }.count
    }
    report.add("\(name).scroll1.ms", scroll.median / 1e6, "ms")
    report.add("\(name).scroll1.p99.ms", scroll.p99 / 1e6, "ms")
    Self.addWire("\(name).scroll1", bytes: Double(scrollBytes / frames), into: &report)

    // A fling: 6 rows a frame through new content, drawing every image; then debounced
    // (placeholders while flinging), and for kitty with previews (what the gallery does over
    // a slow link); each ends with the full frame drawn when it settles.
    let fling = (1...frames).map { scene.frame(atRow: 1000 + $0 * 6) }
    var policies: [(String, ImageDrawPolicy)] = [("fling", .all), ("fling_debounced", .none)]
    if graphics == .kitty { policies.append(("fling_preview", .preview)) }
    var flingSecond = 0.0
    for (label, policy) in policies {
      let flinging = renderer()
      _ = flinging.render(first.frame, images: first.images)
      var samples = Samples()
      var bytes = 0
      for step in fling {
        bytes +=
          samples.measure { flinging.render(step.frame, images: step.images, policy: policy) }
          .count
      }
      if let last = fling.last {
        bytes += samples.measure { flinging.render(last.frame, images: last.images) }.count
      }
      let perFrame = Double(bytes) / Double(samples.count)
      report.add("\(name).\(label).ms", samples.total / Double(samples.count) / 1e6, "ms")
      report.add("\(name).\(label).bytes", perFrame.rounded(), "bytes")
      Self.addWire(
        "\(name).\(label).second", bytes: (perFrame * Self.framesPerSecond).rounded(),
        into: &report)
      if label == "fling" { flingSecond = perFrame * Self.framesPerSecond }
    }
    return WireCost(
      full: Double(fullBytes), scroll: Double(scrollBytes / frames), flingSecond: flingSecond,
      fullMilliseconds: full.median / 1e6, scrollMilliseconds: scroll.median / 1e6)
  }

  /// chafa renders the visible tiles' images (PPM files) in one process per screen.
  private func measureChafa(
    scene: TileScene, into report: inout BenchReport
  ) throws
    -> [GraphicsProtocol: Measure]
  {
    guard FileManager.default.isExecutableFile(atPath: chafa) else { return [:] }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tessera-render-bench-\(ProcessInfo.processInfo.processIdentifier)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let first = scene.frame(atRow: 0)
    var files: [String] = []
    for (index, placement) in first.images.enumerated() {
      let url = directory.appendingPathComponent("tile\(index).ppm")
      try TileScene.ppm(placement.bitmap).write(to: url)
      files.append(url.path)
    }
    let size = "\(scene.tileColumns)x\(scene.tileRows - 1)"
    let common = ["--size", size, "--stretch", "--colors", "full"]
    let formats: [(GraphicsProtocol?, String, [String])] = [
      (.blocks, "blocks", ["--format", "symbols", "--symbols", "vhalf"]),
      (nil, "symbols_default", ["--format", "symbols"]),
      (.sixel, "sixel", ["--format", "sixels"]),
      (.kitty, "kitty", ["--format", "kitty"]),
    ]
    var result: [GraphicsProtocol: Measure] = [:]
    var startup = Samples()
    for _ in 0..<5 {
      _ = try startup.measure { try runChafa(common + ["--format", "symbols", files[0]]) }
    }
    report.add("chafa.one_tile_process.ms", startup.median / 1e6, "ms")
    for (graphics, label, arguments) in formats {
      var samples = Samples()
      var bytes = 0
      for _ in 0..<5 {
        bytes = try samples.measure { try runChafa(common + arguments + files) }
      }
      report.add("chafa.\(label).full.ms", samples.median / 1e6, "ms")
      Self.addWire("chafa.\(label).full", bytes: Double(bytes), into: &report)
      Self.addWire(
        "chafa.\(label).fling.second", bytes: Double(bytes) * Self.framesPerSecond,
        into: &report)
      if let graphics {
        result[graphics] = Measure(milliseconds: samples.median / 1e6, bytes: Double(bytes))
      }
    }
    report.note(
      "chafa runs once per screen over the visible tiles' PPM files (\(size) cells each); "
        + "its scroll is a full redraw, so scroll1 ratios compare our diffed frame with it")
    return result
  }

  /// Runs chafa and returns how many bytes it wrote.
  private func runChafa(_ arguments: [String]) throws -> Int {
    try BenchSpawn.runCapturingBytes([chafa] + arguments).output.count
  }

}

/// A grid of image tiles, 10 across, scrolling through rows of items; each item shows one of
/// a set of photo tiles with a caption row: 24 photo-like JPEGs (`RenderPhotos`), each decoded
/// by libvips at ten zooms and cropped to the tile, 240 distinct pictures. Drawn tiles (flat
/// colours, gradients) compress many times better than photos, so figures measured on them
/// would flatter every compressed protocol.
struct TileScene {
  let width = 200
  let height = 60
  let tileColumns = 20
  let tileRows = 10
  let imagePixels = 160
  let cellPixelSize: PixelSize
  let bitmaps: [Bitmap]

  /// Zooms per photo.
  static let zooms = 10

  init(cellPixelSize: PixelSize) throws {
    self.cellPixelSize = cellPixelSize
    let photos = try RenderPhotos().ensure()
    var bitmaps: [Bitmap] = []
    for zoom in 0..<Self.zooms {
      for photo in photos {
        bitmaps.append(try Self.tile(of: photo, side: imagePixels, zoom: zoom))
      }
    }
    self.bitmaps = bitmaps
  }

  /// The centre `side` × `side` of `photo` scaled (by libvips' shrink-on-load thumbnailer) to
  /// cover a square of `side` + 24 × `zoom` pixels (at most 376: the photos are 480 high).
  static func tile(of photo: URL, side: Int, zoom: Int) throws -> Bitmap {
    let bytes = try Data(contentsOf: photo)
    let scaled = side + 24 * zoom
    var pixels: UnsafeMutablePointer<UInt8>?
    var length = 0
    var width: Int32 = 0
    var height: Int32 = 0
    let status = bytes.withUnsafeBytes {
      tessera_vips_thumbnail_rgba(
        $0.baseAddress, $0.count, Int32(scaled), Int32(scaled), Int32(TESSERA_FIT_FILL.rawValue),
        &pixels, &length, &width, &height)
    }
    guard status == 0, let pixels, width >= side, height >= side,
      length == Int(width) * Int(height) * 4
    else { throw BenchFailure("libvips could not decode \(photo.lastPathComponent)") }
    defer { tessera_vips_free(pixels) }
    let source = UnsafeBufferPointer(start: pixels, count: length)
    let (left, top) = ((Int(width) - side) / 2, (Int(height) - side) / 2)
    var tile = [UInt8](repeating: 0, count: side * side * 4)
    for row in 0..<side {
      let from = ((top + row) * Int(width) + left) * 4
      tile.replaceSubrange(
        (row * side * 4)..<((row + 1) * side * 4), with: source[from..<(from + side * 4)])
    }
    return try Bitmap(width: side, height: side, pixels: tile)
  }

  /// The frame and images with the list scrolled down by `row` cell rows.
  func frame(atRow row: Int) -> (frame: FrameBuffer, images: [ImagePlacement]) {
    var frame = FrameBuffer(width: width, height: height)
    let viewport = CellRect(x: 0, y: 0, width: width, height: height - 1)
    var images: [ImagePlacement] = []
    let across = width / tileColumns
    let firstTileRow = row / tileRows
    let lastTileRow = (row + height - 2) / tileRows
    for tileRow in firstTileRow...lastTileRow {
      for column in 0..<across {
        let item = tileRow * across + column
        let x = column * tileColumns
        let y = tileRow * tileRows - row
        let caption = CellRect(x: x, y: y + tileRows - 1, width: tileColumns, height: 1)
        frame.put(
          " item \(item)", x: x, y: caption.y, style: CellStyle(attributes: [.dim]),
          clip: viewport.intersection(caption))
        frame.put("·", x: x + tileColumns / 2, y: y + tileRows / 2 - 1, clip: viewport)
        let id = item % bitmaps.count
        images.append(
          ImagePlacement(
            imageID: UInt64(id), bitmap: bitmaps[id],
            rect: CellRect(x: x, y: y, width: tileColumns, height: tileRows - 1), clip: viewport))
      }
    }
    frame.put(
      " rows \(row)–\(row + height - 1)", x: 0, y: height - 1,
      style: CellStyle(attributes: [.inverse]))
    return (frame, images.filter { !$0.rect.intersection(viewport).isEmpty })
  }

  /// A binary PPM of a bitmap's colour channels, for chafa.
  static func ppm(_ bitmap: Bitmap) -> Data {
    var data = Data("P6\n\(bitmap.width) \(bitmap.height)\n255\n".utf8)
    data.reserveCapacity(data.count + bitmap.width * bitmap.height * 3)
    for pixel in 0..<(bitmap.width * bitmap.height) {
      data.append(contentsOf: bitmap.pixels[(pixel * 4)..<(pixel * 4 + 3)])
    }
    return data
  }
}
