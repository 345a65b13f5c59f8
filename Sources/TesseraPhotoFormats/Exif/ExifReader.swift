import TesseraUtilities

/// What a photo's EXIF says about it, as far as the gallery cares: when it was taken, with
/// which camera, and how it is turned; and what the file's own XMP adds (a date EXIF lacks,
/// the rating, label and tags a tool wrote into the file: `EmbeddedMetadata`).
public struct ExifFacts: Equatable, Sendable {
  /// DateTimeOriginal (or else DateTimeDigitized): the camera's wall clock, no time zone.
  public var taken: WallClockTime?
  /// The camera model (tag 0x0110), printable ASCII only, at most `FeedLimits.maxExifText`.
  public var model: String?
  /// EXIF orientation 1…8 (1 upright); nil when absent or outside 1…8.
  public var orientation: Int?
  /// The stars given in the camera (or by a tool writing EXIF), tag 0x4746: 0 unrated,
  /// 1…5; nil when absent or outside 0…5. An XMP sidecar's rating overrides it.
  public var rating: Int?
  /// What a culling tool wrote into the file's own XMP besides the rating (which is
  /// `rating`): its colour label, keywords, tag paths and title; nil when it says none.
  package var decided: XMPCulling?

  public init(
    taken: WallClockTime? = nil, model: String? = nil, orientation: Int? = nil,
    rating: Int? = nil
  ) {
    self.taken = taken
    self.model = model
    self.orientation = orientation
    self.rating = rating
  }

  /// Orientations 5…8 turn the picture a quarter: its shown width is the stored height.
  public var swapsSides: Bool { (5...8).contains(orientation ?? 1) }
}

/// A small, bounded EXIF reader over a file's first bytes (the prefix the folder walk already
/// reads), through `ExifStructure`: a JPEG's APP1 `Exif\0\0` segment, or a TIFF file's own
/// header (which is also how a HEIF file's Exif item is read, once `HEIFHeader` found it). Only IFD0 and the Exif IFD are read, each at most once, so a forged offset can point
/// nowhere new and no chain of IFDs can loop.
///
/// - Complexity: O(segments before APP1 + entries of the two IFDs), both bounded by
///   `FeedLimits.maxJPEGSegments` and `FeedLimits.maxIFDEntries`.
public enum ExifReader {
  /// Tags read: Model, Orientation and Rating (IFD0), the Exif IFD pointer, the two dates (in
  /// the Exif IFD or IFD0).
  private enum Tag {
    static let model = 0x0110
    static let orientation = 0x0112
    static let rating = 0x4746
    static let exifPointer = 0x8769
    static let dateTimeOriginal = 0x9003
    static let dateTimeDigitized = 0x9004
  }

  /// The facts in `bytes`, or nil when they hold no readable EXIF.
  public static func facts(_ bytes: [UInt8]) -> ExifFacts? {
    let bytes =
      bytes.count > FeedLimits.maxHeaderBytes
      ? Array(bytes.prefix(FeedLimits.maxHeaderBytes)) : bytes
    guard let exif = ExifStructure(photo: bytes) else { return nil }
    return facts(in: exif)
  }

  /// The facts of a structure already found (a TIFF read in two parts).
  package static func facts(in exif: ExifStructure) -> ExifFacts? {
    guard let ifd0 = exif.firstIFD else { return nil }
    var facts = ExifFacts()
    var exifOffset: Int?
    // By preference: the Exif IFD's original, IFD0's (TIFF/EP, as some NEFs and a CR3's CMT2,
    // whose first IFD is the Exif IFD, put it there), then the digitized ones in that order.
    var dates: [WallClockTime?] = [nil, nil, nil, nil]
    func note(_ entry: ExifStructure.Entry, inIFD0: Bool) {
      guard entry.tag == Tag.dateTimeOriginal || entry.tag == Tag.dateTimeDigitized,
        let text = exif.ascii(entry, maxLength: FeedLimits.maxExifText),
        let time = WallClockTime(exif: text)
      else { return }
      dates[(entry.tag == Tag.dateTimeOriginal ? 0 : 2) + (inIFD0 ? 1 : 0)] = time
    }
    for entry in exif.entries(at: ifd0) {
      note(entry, inIFD0: true)
      switch entry.tag {
      case Tag.model: facts.model = exif.ascii(entry, maxLength: FeedLimits.maxExifText)
      case Tag.orientation:
        if entry.type == 3, entry.count >= 1, let value = exif.u16(entry.offset + 8),
          (1...8).contains(value)
        {
          facts.orientation = value
        }
      case Tag.rating:
        if entry.type == 3, entry.count >= 1, let value = exif.u16(entry.offset + 8),
          (0...5).contains(value)
        {
          facts.rating = value
        }
      case Tag.exifPointer:
        if entry.type == 4 || entry.type == 13, entry.count == 1 {
          exifOffset = exif.u32(entry.offset + 8)
        }
      default: break
      }
    }
    if let exifOffset, exifOffset != ifd0 {
      for entry in exif.entries(at: exifOffset) { note(entry, inIFD0: false) }
    }
    facts.taken = dates.lazy.compactMap { $0 }.first
    return facts == ExifFacts() ? nil : facts
  }
}
