import Foundation
import TesseraPhotoFormats
import TesseraUtilities

/// What a local photo's first bytes tell: its pixel size as shown (EXIF orientations 5…8
/// swap the sides, as libvips' thumbnail turns the picture upright) and its EXIF facts; for a
/// video, its duration and the date its container says it was recorded.
public struct PhotoHeader: Sendable, Equatable {
  /// Width × height as the photo is shown, when the header states it within `FeedLimits`.
  public var pixelSize: PixelSize?
  public var exif: ExifFacts?
  /// A video's length in seconds (in hundredths, at most `VideoFacts.maxDuration`); nil for
  /// photos and for videos whose container does not say.
  public var duration: Double?
  /// An animated GIF or WebP (`AnimatedImage`): its tile says so, its detail view plays it.
  public var isAnimated = false
  /// What the photo's XMP sidecar says a person decided (`XMPSidecar`), else what the file's
  /// own XMP says (`ExifFacts.decided`: a label, tags, a title a tool wrote into the file);
  /// nil when neither says anything. A sidecar's say replaces the file's whole, as darktable
  /// and digiKam read a sidecar once they have one; the rating alone falls back to the file's
  /// (`rating`).
  public var culling: PhotoCulling?
  /// Where the video of a motion photo lies in its file: the MP4 a Google or Samsung camera
  /// appends to the JPEG and announces in its XMP (`JPEGMotionPhoto`), checked to lie inside
  /// the file. Nil for every other photo.
  public var appendedMotion: Range<Int>?

  public init(
    pixelSize: PixelSize? = nil, exif: ExifFacts? = nil, duration: Double? = nil,
    isAnimated: Bool = false, culling: PhotoCulling? = nil, appendedMotion: Range<Int>? = nil
  ) {
    self.pixelSize = pixelSize
    self.exif = exif
    self.duration = duration
    self.isAnimated = isAnimated
    self.culling = culling ?? exif?.decided.flatMap(PhotoCulling.init)
    self.appendedMotion = appendedMotion
  }

  /// The header in `bytes` (a file's first bytes). O(bytes looked at), bounded by
  /// `FeedLimits.maxHeaderBytes`. A HEIC/AVIF file's EXIF is read when its Exif item lies
  /// within `bytes` (`LocalPhotoHeaderReader` also reads one that lies further on), and so
  /// are a PNG's, WebP's and JPEG XL container's EXIF and XMP (`EmbeddedMetadata`); a JPEG
  /// without an EXIF date is dated by its XMP or IPTC. `isWholeFile` says the bytes are the
  /// whole file: a GIF's or WebP's animation claim is then checked against the frames alone.
  public init(bytes: [UInt8], isWholeFile: Bool = false) {
    if let video = VideoContainer(sniffing: bytes) {
      self.init(video: video.scan(bytes, at: 0, fileSize: bytes.count).facts)
      return
    }
    if let heif = HEIFHeader(bytes: bytes) {
      let exifItem = heif.exif?.range(inFileOf: bytes.count, limit: FeedLimits.maxHEIFExifBytes)
      let xmpItem = heif.xmp?.range(inFileOf: bytes.count, limit: XMPPacket.maxPacketBytes)
      self.init(
        heif: heif, exifItem: exifItem.map { Array(bytes[$0]) },
        xmpItem: xmpItem.map { Array(bytes[$0]) })
      return
    }
    let exif = EmbeddedMetadata.facts(bytes)
    let stored = ImageHeader.pixelSize(bytes)
    if let stored, exif?.swapsSides == true {
      self.init(pixelSize: PixelSize(width: stored.height, height: stored.width), exif: exif)
    } else {
      self.init(pixelSize: stored, exif: exif)
    }
    isAnimated = AnimatedImage.isAnimated(bytes, isWholeFile: isWholeFile)
  }
}

extension PhotoHeader {
  /// The rating that counts: the sidecar's (`PhotoCulling`), else the file's own (its XMP's,
  /// else the camera's EXIF tag: `ExifFacts.rating`).
  public var rating: Int? {
    culling.map { $0.rating(over: exif?.rating) } ?? exif?.rating
  }

  /// A video's header: its duration, and its creation time as the date taken, so it sorts
  /// among the photos of the same moment. The container's time is UTC; a camera's EXIF date
  /// is its wall clock, so the time is read on the clock of `zone` — the process's own, as
  /// exiftool's `-api QuickTimeUTC` does — which is the camera's when it was recorded here.
  init(video: VideoFacts, zone: TimeZone = .current) {
    let taken = video.created.map {
      WallClockTime(Date(timeIntervalSince1970: TimeInterval($0)), in: zone)
    }
    self.init(exif: taken.map { ExifFacts(taken: $0) }, duration: video.duration)
  }

  /// A HEIF photo's header: `heif`'s shown size, the facts of its Exif item's bytes and what
  /// its XMP item says a person decided, when they were read. The orientation is dropped:
  /// libheif turns the picture by its own `irot` and libvips' heifload ignores EXIF's, so it
  /// would turn a HEIF photo twice.
  init(heif: HEIFHeader, exifItem: [UInt8]?, xmpItem: [UInt8]?) {
    var facts =
      exifItem.flatMap(HEIFHeader.tiff(inExifItem:)).flatMap(ExifReader.facts) ?? ExifFacts()
    facts.orientation = nil
    EmbeddedMetadata.add(xmp: xmpItem, to: &facts)
    self.init(pixelSize: heif.pixelSize, exif: facts == ExifFacts() ? nil : facts)
  }
}

/// Reads photo headers: the real file system, or a test's table.
public protocol PhotoHeaderReading: Sendable {
  /// The header of the file at `path`, nil when it cannot be read. Blocking.
  func header(ofFileAt path: String) -> PhotoHeader?
  /// What the XMP sidecar at `path` says; the file system's by default
  /// (`culling(ofSidecarAt:)` in SidecarReading.swift). Blocking.
  func culling(ofSidecarAt path: String) -> PhotoCulling?
}

/// Reads at most `FeedLimits.maxPhotoHeaderBytes` of each file through `LocalFile` (no
/// symlinks, no FIFOs, size checked on the open descriptor). A HEIC/AVIF file whose Exif item
/// lies past those bytes has it read too, at most `FeedLimits.maxHEIFExifBytes` from within
/// the file's size, through the same checks; a file that changed in between gives no EXIF.
///
/// A JPEG is read with one small read when its frame header lies within
/// `firstReadBytes`: everything its header tells (EXIF is an APP1 segment) comes before the
/// frame header, which a camera's file has within its first few kilobytes. Reading 128 KiB
/// of each of 200 photos took ~20 ms of a first launch's critical path; 32 KiB, a fifth.
///
/// A JPEG whose frame header is not in those bytes has the rest of its header walked segment
/// by segment in the file, each segment it does not need stepped over unread
/// (`JPEGHeaderGathering`).
///
/// A PNG, WebP or JPEG XL file with no date in those bytes may hold its metadata further on
/// (WebP puts it after the image data, a PNG may put `eXIf` after IDAT): the WebP or JPEG XL
/// chunk walk goes on from where it left the bytes, at most ``maxFurtherReads`` reads of at
/// most ``furtherReadBytes``; a PNG has its last `PNGChunks.maxTailBytes` read once. Each
/// read goes through the same checks, and a file that changed in between gives no date.
///
/// A JPEG whose XMP announces an appended video (a motion photo) has its place noted, checked
/// against the file's size: nothing more is read for it (`JPEGMotionPhoto`).
///
/// A video (known by its bytes: `VideoContainer`) may be up to `FeedLimits.maxLocalVideoBytes`
/// long; its container's walk goes on past the first bytes the same way, at most
/// ``maxFurtherReads`` windows of ``videoWindowBytes``: a phone's `moov` after its media data
/// is one more read.
public struct LocalPhotoHeaderReader: PhotoHeaderReading {
  /// Bytes of the first read; a file whose header goes on past them is read again, up to
  /// `FeedLimits.maxPhotoHeaderBytes`.
  static let firstReadBytes = 32 * 1024

  /// Reads past the first bytes that a WebP or JPEG XL walk may make: each one a chunk's
  /// header and at most one metadata chunk.
  static let maxFurtherReads = 4
  static let furtherReadBytes = max(WebPChunks.maxChunkBytes, JXLBoxes.maxBoxBytes)
  /// Bytes of a video read at each offset its walk names: a box or element header, and a
  /// `moov` or Info up to its movie header (`mvhd` comes first; a few hundred bytes).
  static let videoWindowBytes = 64 * 1024

  public init() {}

  public func header(ofFileAt path: String) -> PhotoHeader? {
    let first = LocalFile.readPrefix(
      path: path, limit: Self.firstReadBytes, maxFileSize: FeedLimits.maxLocalVideoBytes)
    guard case .success(let start) = first else { return nil }
    if let video = VideoContainer(sniffing: start.bytes) {
      return PhotoHeader(video: videoFacts(video, start, path: path))
    }
    // Only a video may be larger than a photo.
    guard start.size <= FeedLimits.maxLocalFileBytes else { return nil }
    if start.bytes.count == start.size || Self.holdsWholeJPEGHeader(start.bytes) {
      return header(of: start, path: path)
    }
    let read = LocalFile.readPrefix(
      path: path, limit: FeedLimits.maxPhotoHeaderBytes, maxFileSize: FeedLimits.maxLocalFileBytes)
    guard case .success(let prefix) = read else { return nil }
    return header(of: prefix, path: path)
  }

  /// Whether `bytes` are a JPEG's start up to and including its frame header.
  static func holdsWholeJPEGHeader(_ bytes: [UInt8]) -> Bool {
    ImageSignature(sniffing: bytes) == .jpeg && ImageHeader.pixelSize(bytes) != nil
  }

  private func header(of prefix: LocalFile.Prefix, path: String) -> PhotoHeader {
    guard var heif = HEIFHeader(bytes: prefix.bytes) else {
      if let gathered = jpegHeaderFurtherOn(prefix, path: path) {
        var header = PhotoHeader(bytes: gathered)
        header.appendedMotion = JPEGMotionPhoto.videoRange(inJPEG: gathered, fileSize: prefix.size)
        return header
      }
      var header = PhotoHeader(bytes: prefix.bytes, isWholeFile: prefix.bytes.count == prefix.size)
      header.appendedMotion = JPEGMotionPhoto.videoRange(
        inJPEG: prefix.bytes, fileSize: prefix.size)
      if header.exif?.taken == nil, prefix.bytes.count < prefix.size,
        let found = metadataFurtherOn(prefix, path: path),
        let facts = found.facts(keepsOrientation: EmbeddedMetadata.decoderTurns(prefix.bytes))
      {
        // A quarter turn found further on (a PNG's eXIf after its pixels) turns the size too.
        if facts.swapsSides != (header.exif?.swapsSides == true), let size = header.pixelSize {
          header.pixelSize = PixelSize(width: size.height, height: size.width)
        }
        header.exif = facts
        header.culling = header.culling ?? facts.decided.flatMap(PhotoCulling.init)
      }
      if header.exif == nil,
        let facts = RawContainerExif.crwFacts(
          head: prefix.bytes, fileSize: prefix.size,
          read: { Self.read(path, offset: $0, count: $1, sameAs: prefix) })
      {
        header.exif = facts
      }
      if header.exif == nil || header.pixelSize == nil, prefix.bytes.count < prefix.size,
        let tiff = tiffIFD0FurtherOn(prefix, path: path)
      {
        header.exif = header.exif ?? tiff.facts
        header.pixelSize = header.pixelSize ?? tiff.pixelSize
      }
      return header
    }
    var metaInPrefix = true
    if heif == HEIFHeader(), let later = laterHEIFMeta(prefix, path: path) {
      heif = later
      metaInPrefix = false
    }
    // Each item from the bytes already read when it lies there, else read from the file.
    func item(_ extent: HEIFExtent?, limit: Int) -> [UInt8]? {
      guard let range = extent?.range(inFileOf: prefix.size, limit: limit) else { return nil }
      return metaInPrefix && range.upperBound <= prefix.bytes.count
        ? Array(prefix.bytes[range])
        : Self.read(path, offset: range.lowerBound, count: range.count, sameAs: prefix)
    }
    var header = PhotoHeader(
      heif: heif, exifItem: item(heif.exif, limit: FeedLimits.maxHEIFExifBytes),
      xmpItem: item(heif.xmp, limit: XMPPacket.maxPacketBytes))
    // An image sequence (AVIF `avis`, HEIF `msf1`) is a movie too: without an EXIF date, its
    // movie header's creation time dates it, as a video's does.
    let isSequence = ImageSequence(prefix.bytes)?.kind == .isoSequence
    // It plays, through ffmpeg (`SequenceDecoder`).
    header.isAnimated = isSequence
    if header.exif?.taken == nil, isSequence,
      let taken = PhotoHeader(video: videoFacts(.isoMedia, prefix, path: path)).exif?.taken
    {
      var facts = header.exif ?? ExifFacts()
      facts.taken = taken
      header.exif = facts
    }
    return header
  }

  /// `count` bytes at `offset` of the file whose first bytes were `prefix`, through the same
  /// checks; nil when they cannot be read or the file's size or time changed in between.
  static func read(
    _ path: String, offset: Int, count: Int, sameAs prefix: LocalFile.Prefix
  ) -> [UInt8]? {
    let read = SafeFileRead.contents(
      path: path, maxFileSize: max(prefix.size, FeedLimits.maxLocalFileBytes), offset: offset,
      count: count)
    guard case .success(let contents) = read, contents.size == prefix.size,
      contents.modified == prefix.modified
    else { return nil }
    return [UInt8](contents.bytes)
  }

  /// The header from a `meta` box after the media data (Samsung writes `mdat` first): top-level
  /// boxes are stepped over by their sizes, at most ``maxFurtherReads`` windows of
  /// `FeedLimits.maxPhotoHeaderBytes`, each past the last; nil when none holds `meta`. Item
  /// offsets are the file's own (construction method 0), so a window's place does not matter.
  private func laterHEIFMeta(_ prefix: LocalFile.Prefix, path: String) -> HEIFHeader? {
    guard let fileType = HEIFHeader.fileType(prefix.bytes),
      var next = HEIFHeader.boxAfterPrefix(prefix.bytes, fileSize: prefix.size)
    else { return nil }
    for _ in 0..<Self.maxFurtherReads {
      guard
        let window = Self.read(
          path, offset: next, count: min(prefix.size - next, FeedLimits.maxPhotoHeaderBytes),
          sameAs: prefix)
      else { return nil }
      if let header = HEIFHeader(bytes: fileType + window), header != HEIFHeader() {
        return header
      }
      guard let after = HEIFHeader.boxAfterPrefix(window, from: next, fileSize: prefix.size),
        after > next
      else { return nil }
      next = after
    }
    return nil
  }

  /// The header segments of a JPEG whose frame header lies past its first bytes (a phone's
  /// own segments before the EXIF), gathered by walking on in the file (`JPEGHeaderGathering`);
  /// nil for anything else, or when the walk found no frame header.
  private func jpegHeaderFurtherOn(_ prefix: LocalFile.Prefix, path: String) -> [UInt8]? {
    guard prefix.bytes.count < prefix.size, ImageSignature(sniffing: prefix.bytes) == .jpeg,
      !Self.holdsWholeJPEGHeader(prefix.bytes)
    else { return nil }
    return JPEGHeaderGathering.gather(head: prefix.bytes, fileSize: prefix.size) {
      Self.read(path, offset: $0, count: $1, sameAs: prefix)
    }
  }

  /// The EXIF and size of a TIFF whose IFD0 lies past its first bytes (libtiff, drones and
  /// multispectral cameras write the image data first): one read of at most
  /// `FeedLimits.maxPhotoHeaderBytes` around IFD0, half of it before (the Exif IFD and the
  /// values may precede IFD0: MicaSense), or the file's end when IFD0 lies in it (DJI,
  /// libtiff). The size is turned by the EXIF orientation, as a JPEG's is.
  private func tiffIFD0FurtherOn(
    _ prefix: LocalFile.Prefix, path: String
  ) -> (facts: ExifFacts?, pixelSize: PixelSize?)? {
    guard ExifStructure.tiffRange(inJPEG: prefix.bytes) == nil,
      let head = ExifStructure(photo: prefix.bytes), let ifd0 = head.firstIFD,
      ifd0 >= prefix.bytes.count, ifd0 < prefix.size
    else { return nil }
    let span = FeedLimits.maxPhotoHeaderBytes
    let start = max(prefix.bytes.count, min(ifd0 - span / 2, prefix.size - span))
    guard
      let window = Self.read(
        path, offset: start, count: min(prefix.size - start, span), sameAs: prefix),
      let whole = ExifStructure(
        tiffHead: prefix.bytes, window: window, at: start, fileLength: prefix.size)
    else { return nil }
    let facts = ExifReader.facts(in: whole)
    let stored = TIFFImageSize.pixelSize(in: whole)
    return (
      facts,
      facts?.swapsSides == true
        ? stored.map { PixelSize(width: $0.height, height: $0.width) } : stored
    )
  }

  /// A video's facts: its container's walk over the first bytes (`prefix`), then over a
  /// window at each offset it names, each past the last (a walk can never stand still).
  private func videoFacts(
    _ container: VideoContainer, _ prefix: LocalFile.Prefix, path: String
  ) -> VideoFacts {
    var scan = container.scan(prefix.bytes, at: 0, fileSize: prefix.size)
    var reached = 0
    for _ in 0..<Self.maxFurtherReads {
      guard !scan.facts.isComplete, let next = scan.next, next > reached, next < prefix.size,
        let window = Self.read(
          path, offset: next, count: min(prefix.size - next, Self.videoWindowBytes),
          sameAs: prefix)
      else { break }
      reached = next
      let further = container.scan(window, at: next, fileSize: prefix.size)
      scan.facts.merge(further.facts)
      scan.next = further.next
    }
    return scan.facts
  }

  /// The metadata of a PNG, WebP or JPEG XL file whose first bytes (`prefix`) end before its
  /// metadata chunks do; nil for other files, and when nothing further was read.
  private func metadataFurtherOn(_ prefix: LocalFile.Prefix, path: String) -> EmbeddedMetadata? {
    func read(offset: Int, count: Int) -> [UInt8]? {
      Self.read(path, offset: offset, count: count, sameAs: prefix)
    }
    let bytes = prefix.bytes
    let walkOn: ([UInt8]) -> MetadataScan
    var scan: MetadataScan
    switch ImageSignature(sniffing: bytes) {
    case .png:
      scan = PNGChunks.metadata(bytes)
      guard scan.next != nil else { return nil }
      let count = min(prefix.size, PNGChunks.maxTailBytes)
      guard let tail = read(offset: prefix.size - count, count: count) else { return nil }
      scan.found.merge(PNGChunks.tailMetadata(tail))
      return scan.found
    case .webp:
      scan = WebPChunks.metadata(bytes)
      walkOn = { WebPChunks.chunks($0, from: 0) }
    case .jxl where JXLBoxes.isContainer(bytes):
      scan = JXLBoxes.metadata(bytes)
      walkOn = { JXLBoxes.boxes($0, from: 0) }
    default: return nil
    }
    var found = scan.found
    var reached = 0
    for _ in 0..<Self.maxFurtherReads {
      // Each read starts past the last one's start: a walk can never stand still.
      guard found.facts(keepsOrientation: false)?.taken == nil, let next = scan.next,
        next > reached, next < prefix.size,
        let window = read(offset: next, count: min(prefix.size - next, Self.furtherReadBytes))
      else { break }
      reached = next
      scan = walkOn(window)
      found.merge(scan.found)
      scan.next = scan.next.map { next + $0 }
    }
    return found
  }
}
