import TesseraPhotoLibrary
import TesseraTerminal

/// What the command line gives the gallery: the `tessera` executable's `Gallery` command
/// parses these options and conforms, so the launcher and `GallerySources` read them here,
/// in this module, without the command-line parser.
package protocol GalleryOptions: Sendable {
  var inputs: [String] { get }
  var feed: String? { get }
  var users: String? { get }
  var dir: [String] { get }
  var depth: Int { get }
  var hidden: Bool { get }
  /// Nil: the date taken, or the order given with ``readStdin``.
  var sort: PhotoSort? { get }
  var reverse: Bool { get }
  var sections: PhotoGrouping { get }
  var layout: GalleryLayoutMode { get }
  var columns: Int { get }
  /// `--tiles`: the grid's tile shape, as ``TileShape/init(argument:)`` reads it.
  var tiles: String { get }
  var graphics: GraphicsProtocol? { get }
  var latency: String { get }
  var failureRate: Double { get }
  var items: Int { get }
  var noDiskCache: Bool { get }
  /// `-i`: the files to show come from standard input, one a line (NUL-separated with
  /// ``nullSeparated``).
  var readStdin: Bool { get }
  /// `-o`: on `q`, the marked photos' paths (or the selected one's) go to standard output.
  var printMarked: Bool { get }
  /// `--pick`: Enter prints the selected photo's path and quits.
  var pick: Bool { get }
  /// `-0`: paths in and out are separated by NUL, not newlines.
  var nullSeparated: Bool { get }
  /// `--no-videos`: a folder's videos are not listed.
  var noVideos: Bool { get }
  /// `--no-stacks`: every frame of a burst shows, none stacked.
  var noStacks: Bool { get }
  /// `--slideshow SECONDS`: open the first photo and show the next every so many seconds.
  var slideshow: Double? { get }
  /// `--filter EXPR`: start filtered, as `/` filters (`PhotoQuery`'s grammar).
  var filter: String? { get }
}

/// Says why the gallery cannot start, in words.
package struct GalleryError: Error, CustomStringConvertible {
  package let description: String

  package init(description: String) {
    self.description = description
  }
}
