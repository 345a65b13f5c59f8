import ArgumentParser
import Foundation
import TesseraBenchSupport
import TesseraUtilities

/// `tessera bench link`: the gallery over a slow link, as over SSH, against timg (kitty) and
/// chafa (sixel) over the same link in the same run (issue 34). The gallery runs in a pseudo-terminal; its output reaches
/// a model of kitty or xterm (``ModelTerminal``) through a ``SlowLink`` of the given rate and
/// delay, and keys and the terminal's answers come back through another. Three launches per
/// terminal, each with an empty cache:
///
/// 1. the first screen: when every visible tile first shows a picture, when the last picture
///    of the settled screen arrived, and the bytes it took;
/// 2. keys while images arrive: `?` opens the help card and `?` closes it, five times from
///    the first picture on; each key's time from being typed to its answer on the model's
///    screen (both link delays in it). Then a fling (PageDown ×5) and the time until the link
///    is quiet, with the screen checked: one status bar, a picture on every tile;
/// 3. the peer on the photos the gallery's first screen showed, until it exits and its last
///    byte arrives: timg (`--grid=` the gallery's columns, `-pk`) in kitty; chafa (`-f sixels`,
///    a tile's width) in xterm, as Debian's timg has no sixel.
///
/// With `--in-tmux` the gallery runs inside a tmux server of its own on the program's side
/// of the link (passthrough on, no status line), as most people run it over SSH; the peer
/// still runs without it.
///
/// A launch that never settles, a key never answered or a torn screen fails the bench.
struct LinkBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "link",
    abstract: "The gallery over a slow link (as SSH): first screen, keys, fling; vs timg.")

  @Option(help: "The link's rate each way: 2mbit, 20mbit, 500kbit, 250kB (bytes), …")
  var rate = "2mbit"
  @Option(help: "The link's delay each way: 40ms, 0.1s, …") var delay = "40ms"
  @Option(help: "Photos in the folder (12-MP JPEGs, the folder bench's).") var photos = 60
  @Option(help: "Terminal columns.") var columns = 158
  @Option(help: "Terminal rows.") var rows = 49
  @Option(help: "Terminals to model: kitty, xterm, or both (comma-separated).")
  var terminals = "kitty,xterm"
  @Option(help: "What the link's sender may queue before a write blocks (bytes).")
  var buffer = 2 << 20
  @Option(help: "Path of the timg binary to compare with in kitty.") var timg = "/usr/bin/timg"
  @Option(help: "Path of the chafa binary to compare with in xterm (sixel).")
  var chafa = "/usr/bin/chafa"
  @Flag(help: "Run the gallery inside tmux (allow-passthrough on) on the far side of the link.")
  var inTmux = false
  @Option(help: "Path of the tmux binary for --in-tmux.") var tmux = "/usr/bin/tmux"
  @Flag(help: "Print one JSON object instead of tables.") var json = false

  func validate() throws {
    guard let rate = Self.bytesPerSecond(rate), (1_000...1e10).contains(rate) else {
      throw ValidationError("--rate must be 8kbit…80gbit, like 2mbit or 250kB")
    }
    guard let delay = Self.seconds(delay), (0...2).contains(delay) else {
      throw ValidationError("--delay must be 0…2 s, like 40ms")
    }
    guard (8...FolderBenchTree.distinctPhotos).contains(photos) else {
      throw ValidationError("--photos must be 8…\(FolderBenchTree.distinctPhotos)")
    }
    guard (40...500).contains(columns), (12...200).contains(rows) else {
      throw ValidationError("--columns must be 40…500 and --rows 12…200")
    }
    guard !flavours.isEmpty, flavours.count == terminals.split(separator: ",").count else {
      throw ValidationError("--terminals takes kitty, xterm or both")
    }
    guard !inTmux || FileManager.default.isExecutableFile(atPath: tmux) else {
      throw ValidationError("--in-tmux needs tmux at \(tmux) (Debian's tmux package)")
    }
    guard (64 << 10...256 << 20).contains(buffer) else {
      throw ValidationError("--buffer must be 64 KiB…256 MiB")
    }
  }

  private var flavours: [ModelTerminal.Flavour] {
    terminals.split(separator: ",").compactMap { ModelTerminal.Flavour(rawValue: String($0)) }
  }

  func run() throws {
    let files = try FolderBenchTree(
      folder: FolderBenchTree.defaultFolder(photos), count: photos
    ).ensure()
    guard let folder = files.first?.deletingLastPathComponent() else { return }
    for (peer, package, flavour) in [
      (timg, "timg", ModelTerminal.Flavour.kitty), (chafa, "chafa", .xterm),
    ]
    where flavours.contains(flavour) && !FileManager.default.isExecutableFile(atPath: peer) {
      throw BenchFailure(
        "no \(package) at \(peer) (Debian's \(package) package): it is the baseline")
    }
    let link = LinkRun.Link(
      bytesPerSecond: Self.bytesPerSecond(rate) ?? 0, delay: Self.seconds(delay) ?? 0,
      buffer: buffer)
    var reports: [BenchReport] = []
    for flavour in flavours {
      let run = LinkRun(
        flavour: flavour, link: link, files: files, folder: folder, columns: columns, rows: rows,
        timg: timg, chafa: chafa, tmux: inTmux ? tmux : nil)
      reports.append(try run.measure())
    }
    var report = BenchReport.merged(
      "link \(rate) + \(delay)\(inTmux ? ", the gallery in tmux" : "")", reports)
    report.note(
      "\(photos) photos of 12 MP, \(columns)×\(rows) cells of 10×20 px; a model terminal at the far end of a \(rate) link with \(delay) each way, \(ByteCount.rounded(buffer)) of sender buffer; each launch with an empty cache"
    )
    report.print(json: json)
  }

  /// "2mbit", "500kbit", "250kB", "1MB", "3000" (bytes a second).
  static func bytesPerSecond(_ text: String) -> Double? {
    let lower = text.lowercased()
    let units: [(String, Double)] = [
      ("gbit", 1e9 / 8), ("mbit", 1e6 / 8), ("kbit", 1e3 / 8), ("gb", 1e9), ("mb", 1e6),
      ("kb", 1e3), ("b", 1),
    ]
    for (suffix, scale) in units where lower.hasSuffix(suffix) {
      return Double(lower.dropLast(suffix.count)).map { $0 * scale }
    }
    return Double(lower)
  }

  /// "40ms", "0.1s", "40" (milliseconds).
  static func seconds(_ text: String) -> Double? {
    let lower = text.lowercased()
    if lower.hasSuffix("ms") { return Double(lower.dropLast(2)).map { $0 / 1000 } }
    if lower.hasSuffix("s") { return Double(lower.dropLast()) }
    return Double(lower).map { $0 / 1000 }
  }
}
