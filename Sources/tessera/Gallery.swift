import ArgumentParser
import Foundation
import TesseraGallery
import TesseraPhotoLibrary
import TesseraServer
import TesseraTerminal

struct Gallery: AsyncParsableCommand, GalleryOptions {
  static let configuration = CommandConfiguration(
    abstract:
      "Browse photos — folders, image files, a feed or a users list — as a scrolling grid (default).",
    usage: "tessera [PATH|URL]… [options]",
    discussion: """
      Folders are walked (recursively, --depth N) and shown while the walk goes on, newest \
      first by the date each photo was taken. Image files are shown as they are; an http(s) \
      URL is a Flickr-format public feed, or a users JSON when its path names users. Several \
      folders and files can be given at once. With nothing given, Tessera starts its own feed \
      server on 127.0.0.1 (generated images, realistic latency) and shows its photos.

      Keys: j k (arrows, wheel) scroll; h l move the selection, K J up / down; Space PgDn / PgUp page; \
      g G (Home End) first / last; Enter opens the selected photo, Esc goes back; L the next \
      layout (grid, list, waterfall); + - columns; m marks, v marks as the selection moves, * inverts the marks; \
      0 1 2 3 4 5 rate the marked (or selected) photos, x rejects them (again: takes the \
      reject back), 6 7 8 9 label them red, yellow, green, blue (again: takes it off), # tags \
      them (type tags separated by commas, -tag removes one, Tab completes from the library's \
      tags), written into their XMP sidecars as darktable and Lightroom read them; d moves the marked (or \
      selected) photos to the Trash; u undoes the last d, rating, label or tags; / filters as \
      you type, by name or by the --filter grammar (rating>=3 label:red tag:wedding !rejected; \
      Enter keeps, Esc shows all), n N the next and previous match; t the \
      months; S opens (or closes) the burst stack under the selection; c compares the marked photos (or the selected one and the next) side by side \
      under one zoom and pan, Tab and Shift-Tab choosing the pane the culling keys act on, \
      Space and Backspace its next and previous photo, Enter opening it; s a slideshow; i the info panel (camera, lens, exposure, position, sizes, \
      sidecar) of the photo shown or selected, following the selection; Ctrl-x and a key runs the key-handler; r refreshes; Ctrl-L \
      redraws; Ctrl-Z suspends; ? shows the keys; q quits (printing the marked paths with -o), Ctrl-C quits \
      printing nothing. In a photo: Space and Backspace the next and previous, + - zoom \
      (decoded again larger), f fits, z shows it at 100 % (again: fits), h j k l pan, o opens it with xdg-open, y copies its \
      path, d moves it to the Trash. A video plays in it: Space pauses and plays on, ← → \
      seek 5 s back and on, Esc stops it; p plays a Live Photo's or motion photo's motion.

      The key-handler is an executable at $XDG_CONFIG_HOME/tessera/key-handler \
      (~/.config/tessera/key-handler). Ctrl-x and a key run it with the key as its argument \
      ("r", "C-r" for Ctrl-r) and the marked photos' paths (or the selected one's) on its \
      standard input, one a line (each ended by NUL with -0; without it, a name with a line \
      break is left out and the status bar says so); it has the terminal until it exits, \
      then the gallery reloads the photos. The Trash is the freedesktop.org one your file \
      manager shows.
      """
  )

  @Argument(
    help: ArgumentHelp(
      "Folders, image files, or one feed or users URL.", valueName: "PATH|URL"),
    completion: .file())
  var inputs: [String] = []
  @Option(help: "A Flickr-format public feed URL (photos_public.gne?format=json…).")
  var feed: String?
  @Option(help: "A users JSON URL ([{avatar, username, role}]); 'embedded' for the built-in one.")
  var users: String?
  @Option(
    help: "A folder of pictures (the same as giving it as an argument).", completion: .directory)
  var dir: [String] = []
  @Option(help: "How many folder levels below each folder to walk (0: the folder alone).")
  var depth: Int = FeedLimits.maxWalkDepth
  @Flag(help: "Include hidden files and folders (names starting with a dot).") var hidden = false
  @Flag(help: "Leave a folder's videos out (they are shown by a poster frame, ▶ on the tile).")
  var noVideos = false
  @Flag(
    help:
      "Show every frame of a burst: by default photos taken within 2 s that look alike are one tile, ▣ and their count on it (S opens and closes it)."
  )
  var noStacks = false
  @Option(
    help:
      "Order of local photos: taken (EXIF date, else modified; the default), modified, name, rating (five stars first, rejected last, under a header per rating), or given (the default with -i)."
  )
  var sort: PhotoSort?
  @Flag(help: "Oldest first (or names Z to A).") var reverse = false
  @Option(help: "Headers over local photos: day, month or none.") var sections: PhotoGrouping =
    .month
  @Option(help: "grid, list or waterfall.") var layout: GalleryLayoutMode = .grid
  @Option(help: "Columns of the grid and the waterfall (1…12).") var columns = 4
  @Option(
    help: """
      The grid's tile shape: auto (the shape most photos have), square, or W:H such as 3:2 \
      or 4:5. A photo of another shape is cropped to it.
      """)
  var tiles = "auto"
  @Option(help: "Image protocol: kitty, sixel, iterm2 or blocks (default: detected).")
  var graphics: GraphicsProtocol?
  @Option(help: "Embedded server latency: none, fixed:50ms, uniform:10ms-200ms, longtail:80ms.")
  var latency = "longtail:60ms,0.8"
  @Option(help: "Embedded server: fraction of requests that fail (0…1).") var failureRate = 0.0
  @Option(help: "Embedded server: photos in the feed.") var items = 10_000
  @Flag(help: "Write nothing to disk: no downloaded images, thumbnails or photo facts.")
  var noDiskCache = false
  @Flag(
    name: [.customShort("i"), .customLong("stdin")],
    help: "Show the files named on standard input, one a line, in that order, as they arrive.")
  var readStdin = false
  @Flag(
    name: [.customShort("o"), .customLong("print-marked")],
    help: "On q, print the marked photos' paths (or the selected one's), one a line.")
  var printMarked = false
  @Flag(help: "Enter prints the selected photo's path and quits: a picker for scripts.")
  var pick = false
  @Flag(
    name: .customShort("0"), help: "Paths in (-i) and out (-o, --pick) are NUL-separated.")
  var nullSeparated = false
  @Option(
    help: ArgumentHelp(
      "Start a slideshow: the first photo, then the next every SECONDS (1…3600); s stops it.",
      valueName: "SECONDS"))
  var slideshow: Double?
  @Option(
    help: ArgumentHelp(
      "Show only the photos EXPR selects, as / does: rating>=3 label:red !rejected camera:TEXT date:2024-05 name:TEXT (see tessera find --help).",
      valueName: "EXPR"))
  var filter: String?

  func validate() throws {
    if readStdin, !inputs.isEmpty || !dir.isEmpty || feed != nil || users != nil {
      throw ValidationError("with -i the files come from standard input: give no paths or URLs")
    }
    let plan: GallerySources
    do {
      plan = try GallerySources(options: self)
    } catch {
      throw ValidationError(String(describing: error))
    }
    _ = plan
    guard (0...FeedLimits.maxWalkDepth).contains(depth) else {
      throw ValidationError("--depth must be 0…\(FeedLimits.maxWalkDepth)")
    }
    guard (1...12).contains(columns) else { throw ValidationError("--columns must be 1…12") }
    guard TileShape(argument: tiles) != nil else {
      throw ValidationError(
        "--tiles must be auto, square or W:H such as 3:2 (sides 1…100, at most 4:1 either way)")
    }
    if let filter {
      do {
        _ = try PhotoQuery(filter)
      } catch {
        throw ValidationError("--filter: \(error.description)")
      }
    }
    if let slideshow, !GallerySlideshow.intervals.contains(slideshow) {
      throw ValidationError("--slideshow must be 1…3600 seconds")
    }
    guard (0...1).contains(failureRate) else {
      throw ValidationError("--failure-rate must be between 0 and 1")
    }
    guard items >= 0 else { throw ValidationError("--items must not be negative") }
    do { _ = try FaultPlan.Latency(parsing: latency) } catch {
      throw ValidationError(error.description)
    }
  }

  func run() async throws {
    try await GalleryLauncher(options: self).launch()
  }
}

extension GalleryLayoutMode: ExpressibleByArgument {
  package init?(argument: String) {
    guard let mode = Self.allCases.first(where: { $0.description == argument.lowercased() })
    else { return nil }
    self = mode
  }
}

extension PhotoSort: ExpressibleByArgument {}
extension PhotoGrouping: ExpressibleByArgument {}

extension GraphicsProtocol: ExpressibleByArgument {}
