/// Every bound a number from outside passes before any arithmetic: pixel sizes claimed by a
/// feed's HTML or a file's header, body sizes, deadlines, page numbers.
///
/// Here, below both, because `TesseraFeeds` (feeds, pages, folder sources) and
/// `TesseraPhotoLibrary` (walks, headers, facts) check against the same bounds; both re-export
/// it, so `import TesseraFeeds` or `import TesseraPhotoLibrary` names it as before.
///
/// A value outside these limits is never trusted: a size becomes "unknown" (nil), a body is cut
/// off with a typed error, a page past the limit ends the feed.
public enum FeedLimits {
  /// Longest side, in pixels, an image may claim (the largest JPEG, PNG and WebP sides in
  /// practice). A claimed side outside 1…65,535 leaves the size unknown.
  public static let maxImageSide = 65_535
  /// Valid image sides: 1…`maxImageSide`.
  public static let imageSides: ClosedRange<Int> = 1...maxImageSide
  /// Most extreme shape a size may claim: 100:1 wide or 1:100 tall.
  public static let maxAspect = 100
  /// Valid aspect ratios (width / height): 1:100…100:1.
  public static let aspects: ClosedRange<Double> = (1 / Double(maxAspect))...Double(maxAspect)

  /// Largest feed or users body read from the network: 8 MiB. Reading stops there.
  public static let maxFeedBytes = 8 << 20
  /// How long a whole feed download may take, headers to last byte.
  public static let feedDeadline = Duration.seconds(30)
  /// How long a feed server may stay silent before the download fails.
  public static let feedIdleTimeout = Duration.seconds(15)
  /// Longest deadline or idle timeout accepted: an hour.
  public static let maxDuration = Duration.seconds(3_600)

  /// Bytes of a local file read to find its pixel size: enough for any real header.
  public static let maxHeaderBytes = 256 * 1024
  /// Largest local image file listed from a folder: 256 MiB.
  public static let maxLocalFileBytes = 256 << 20
  /// Largest local video whose header is read: 1 TiB. Only its first bytes and a few small
  /// windows further on are ever read (a phone's hour of 4K is ~25 GB), never the file.
  public static let maxLocalVideoBytes = 1 << 40
  /// Most entries of a folder looked at; the rest are ignored.
  public static let maxFolderEntries = 100_000

  /// Bytes of a local photo read for its EXIF and pixel size while a folder is walked: EXIF
  /// lives in the first 64 KiB (one APP1 segment), the frame header soon after.
  public static let maxPhotoHeaderBytes = 128 * 1024
  /// JPEG segments looked at before giving up on finding EXIF.
  public static let maxJPEGSegments = 64
  /// Entries of one EXIF IFD read at most (real files have a few dozen).
  public static let maxIFDEntries = 512
  /// Longest EXIF text kept (camera model, dates).
  public static let maxExifText = 128
  /// Bytes of a HEIC/AVIF file's Exif item read when it lies past the header bytes (libheif
  /// and phones write a few KiB; IFD0 and the Exif IFD come first in it).
  public static let maxHEIFExifBytes = 64 * 1024
  /// Deepest box level read in a HEIF file (meta 1, iprp 2, ipco 3, a property 4): the reader
  /// descends only into the boxes it knows, never further.
  public static let maxHEIFBoxDepth = 4
  /// Boxes looked at in one HEIF container (top level, meta, iinf, iprp, ipco); the rest are
  /// ignored.
  public static let maxHEIFBoxes = 1_024
  /// Items read from each of a HEIF file's item tables (iinf, iloc, ipma): a 48-MP phone photo
  /// has a few hundred tiles.
  public static let maxHEIFItems = 4_096
  /// Extents walked in a HEIF file's iloc, all items together (an extent can take no bytes,
  /// so the bytes alone do not bound the walk).
  public static let maxHEIFExtents = 65_536
  /// Item references (iref) read, all together.
  public static let maxHEIFReferences = 8_192
  /// Derived items followed (an `iden` to its source) to find the primary item's size; a
  /// reference loop ends there.
  public static let maxHEIFDerivations = 8
  /// Deepest folder level a walk descends to (`--depth` beyond it is clamped).
  public static let maxWalkDepth = 256
  /// Most images one walk lists; it stops there and says so.
  public static let maxWalkFiles = 1_000_000

  /// Highest page number followed (Tessera's paging extension): beyond it the feed ends.
  public static let maxPage = 1_000_000

  /// Schemes a network feed's items may reference (media, links, avatars).
  public static let networkSchemes: Set<String> = ["http", "https"]
}
