import ArgumentParser
import Foundation
import TesseraFeeds
import TesseraImages
import TesseraServer
import TesseraTerminal

struct Gallery: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Browse a photo feed, a users list or a folder as a scrolling grid (default).",
    discussion: """
      With no --feed, --users or --dir, Tessera starts its own feed server on 127.0.0.1 \
      (generated images, realistic latency) and shows its photos.
      """
  )

  @Option(help: "A Flickr-format public feed URL (photos_public.gne?format=json…).")
  var feed: String?
  @Option(help: "A users JSON URL ([{avatar, username, role}]); 'embedded' for the built-in one.")
  var users: String?
  @Option(help: "A folder of pictures (jpg, png, webp, gif), newest first.")
  var dir: String?
  @Option(help: "grid, list or waterfall.") var layout: GalleryScreen.LayoutMode = .grid
  @Option(help: "Columns of the grid and the waterfall (1…12).") var columns = 4
  @Option(help: "Image protocol: kitty, sixel or blocks (default: detected).")
  var graphics: GraphicsProtocol?
  @Option(help: "Embedded server latency: none, fixed:50ms, uniform:10ms-200ms, longtail:80ms.")
  var latency = "longtail:60ms,0.8"
  @Option(help: "Embedded server: fraction of requests that fail (0…1).") var failureRate = 0.0
  @Option(help: "Embedded server: photos in the feed.") var items = 10_000
  @Flag(help: "Keep downloaded images out of the disk cache.") var noDiskCache = false

  func validate() throws {
    let sources = [feed, users, dir].compactMap { $0 }.count
    guard sources <= 1 || (users == "embedded" && sources == 1) else {
      throw ValidationError("choose one of --feed, --users and --dir")
    }
    do {
      if let feed { _ = try GalleryLauncher.httpURL(feed, option: "--feed") }
      if let users, users != "embedded" {
        _ = try GalleryLauncher.httpURL(users, option: "--users")
      }
    } catch {
      throw ValidationError(String(describing: error))
    }
    guard (1...12).contains(columns) else { throw ValidationError("--columns must be 1…12") }
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

extension GalleryScreen.LayoutMode: ExpressibleByArgument {
  init?(argument: String) {
    guard let mode = Self.allCases.first(where: { $0.description == argument.lowercased() })
    else { return nil }
    self = mode
  }
}

extension GraphicsProtocol: ExpressibleByArgument {}

/// Says why the gallery cannot start, in words.
struct GalleryError: Error, CustomStringConvertible {
  let description: String
}
