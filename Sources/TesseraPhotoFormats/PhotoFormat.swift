import CVipsShim

/// One file format Tessera lists, shows or plays: the one table the folder walk, the feeds,
/// the decoder's allow-list and the signature check all read (`PhotoFormat.all`).
///
/// Adding a format is one row here and, when its bytes need reading, one parser file beside
/// it. A still format libvips decodes, say QOI (libvips 8.15's `qoiload`):
///
/// ```swift
/// PhotoFormat(
///   name: "QOI", kind: .still, extensions: ["qoi"], signature: .qoi,
///   mimeType: "image/qoi", decoder: TESSERA_FORMAT_QOI.rawValue, sources: [.localFolder])
/// ```
///
/// with `case qoi` and its four bytes (`qoif`) in ``ImageSignature``, and the loader's class
/// with its bit in CVipsShim's `LoaderFormats.h` (libvips blocks every loader not listed there).
/// The walk then lists `.qoi` files, the decoder lets libvips' loader read them from a folder
/// (never from the network: `sources`), and a response or file is recognised by its bytes.
package struct PhotoFormat: Sendable, Hashable, CustomStringConvertible {
  /// What the file holds, which decides how its picture is made.
  package enum Kind: Sendable, Hashable {
    /// A picture libvips decodes.
    case still
    /// A camera RAW file: shown by the largest JPEG preview the camera embedded
    /// (`RawPreviewLocator`), never by demosaicing.
    case raw
    /// A video: shown by a poster frame the desktop's thumbnailer makes.
    case video
  }

  /// Where bytes may come from for the decoder to read them.
  package enum Source: Sendable, Hashable {
    /// A feed's image over HTTP: photo formats only, the ones every browser shows.
    case network
    /// A file in a folder the person opened.
    case localFolder
  }

  /// The name a person reads ("JPEG", "camera RAW").
  package let name: String
  package let kind: Kind
  /// Lower-case file extensions, the usual one first.
  package let extensions: [String]
  /// How the file's first bytes say it is this format; nil where the bytes do not tell (a
  /// RAW file is a TIFF or a box container; a video a box, Matroska or RIFF container).
  package let signature: ImageSignature?
  /// The MIME type (the one a desktop thumbnailer entry names a video by).
  package let mimeType: String
  /// The CVipsShim format bit of the libvips loader that decodes it (`TESSERA_FORMAT_…`);
  /// for a RAW file, JPEG's (its embedded preview); 0 when libvips never reads it.
  package let decoder: UInt32
  /// Where the decoder may read it from.
  package let sources: Set<Source>
  /// Whether a file of it may hold more than one frame that the gallery plays.
  package let mayAnimate: Bool

  package init(
    name: String, kind: Kind, extensions: [String], signature: ImageSignature?,
    mimeType: String, decoder: UInt32, sources: Set<Source>, mayAnimate: Bool = false
  ) {
    self.name = name
    self.kind = kind
    self.extensions = extensions
    self.signature = signature
    self.mimeType = mimeType
    self.decoder = decoder
    self.sources = sources
    self.mayAnimate = mayAnimate
  }

  package var description: String { name }
}

extension PhotoFormat {
  package static let jpeg = PhotoFormat(
    name: "JPEG", kind: .still, extensions: ["jpg", "jpeg", "jpe"], signature: .jpeg,
    mimeType: "image/jpeg", decoder: TESSERA_FORMAT_JPEG.rawValue,
    sources: [.network, .localFolder])
  package static let png = PhotoFormat(
    name: "PNG", kind: .still, extensions: ["png"], signature: .png, mimeType: "image/png",
    decoder: TESSERA_FORMAT_PNG.rawValue, sources: [.network, .localFolder])
  package static let webp = PhotoFormat(
    name: "WebP", kind: .still, extensions: ["webp"], signature: .webp, mimeType: "image/webp",
    decoder: TESSERA_FORMAT_WEBP.rawValue, sources: [.network, .localFolder], mayAnimate: true)
  package static let gif = PhotoFormat(
    name: "GIF", kind: .still, extensions: ["gif"], signature: .gif, mimeType: "image/gif",
    decoder: TESSERA_FORMAT_GIF.rawValue, sources: [.network, .localFolder], mayAnimate: true)
  package static let heif = PhotoFormat(
    name: "HEIF", kind: .still, extensions: ["heic", "heif"], signature: .heif,
    mimeType: "image/heif", decoder: TESSERA_FORMAT_HEIF.rawValue,
    sources: [.network, .localFolder])
  package static let avif = PhotoFormat(
    name: "AVIF", kind: .still, extensions: ["avif"], signature: .avif, mimeType: "image/avif",
    decoder: TESSERA_FORMAT_HEIF.rawValue, sources: [.network, .localFolder])
  package static let tiff = PhotoFormat(
    name: "TIFF", kind: .still, extensions: ["tif", "tiff"], signature: .tiff,
    mimeType: "image/tiff", decoder: TESSERA_FORMAT_TIFF.rawValue, sources: [.localFolder])
  package static let jpegXL = PhotoFormat(
    name: "JPEG XL", kind: .still, extensions: ["jxl"], signature: .jxl, mimeType: "image/jxl",
    decoder: TESSERA_FORMAT_JXL.rawValue, sources: [.localFolder])
  /// TIFF-based (cr2, nef, nrw, arw, srf, sr2, dng, orf, rw2, rwl, pef, srw, 3fr, fff, iiq,
  /// erf, mef, mos, kdc, dcr), Canon's CR3 (ISO boxes) and CRW (CIFF), Fujifilm's RAF,
  /// Minolta's MRW.
  package static let raw = PhotoFormat(
    name: "camera RAW", kind: .raw,
    extensions: [
      "cr2", "cr3", "crw", "nef", "nrw", "arw", "srf", "sr2", "dng", "orf", "rw2", "rwl", "pef",
      "srw", "raf", "3fr", "fff", "iiq", "erf", "mef", "mos", "kdc", "dcr", "mrw",
    ], signature: nil, mimeType: "image/x-dcraw", decoder: TESSERA_FORMAT_JPEG.rawValue,
    sources: [.localFolder])

  /// A video container, by the MIME type a desktop's thumbnailer entry names it by.
  private static func video(
    _ name: String, _ extension: String, _ mimeType: String
  )
    -> PhotoFormat
  {
    PhotoFormat(
      name: name, kind: .video, extensions: [`extension`], signature: nil, mimeType: mimeType,
      decoder: 0, sources: [.localFolder], mayAnimate: true)
  }

  package static let videos: [PhotoFormat] = [
    video("MP4", "mp4", "video/mp4"), video("M4V", "m4v", "video/x-m4v"),
    video("QuickTime", "mov", "video/quicktime"), video("Matroska", "mkv", "video/x-matroska"),
    video("WebM", "webm", "video/webm"), video("AVI", "avi", "video/x-msvideo"),
  ]

  /// Every format, one row each.
  package static let all: [PhotoFormat] =
    [.jpeg, .png, .webp, .gif, .heif, .avif, .tiff, .jpegXL, .raw] + videos

  /// Each lower-case extension's format. O(1) per look-up.
  private static let byExtension: [String: PhotoFormat] = Dictionary(
    all.flatMap { format in format.extensions.map { ($0, format) } },
    uniquingKeysWith: { first, _ in first })

  /// The format of a file named `…​.extension` (any case); nil for one Tessera does not list.
  /// O(extension).
  package init?(extension: some StringProtocol) {
    guard let format = Self.byExtension[`extension`.lowercased()] else { return nil }
    self = format
  }

  /// The format whose bytes start like `signature`. O(formats).
  package init?(signature: ImageSignature) {
    guard let format = Self.all.first(where: { $0.signature == signature }) else { return nil }
    self = format
  }

  /// The extensions of every format of these kinds, lower-case.
  package static func extensions(of kinds: Set<Kind>) -> Set<String> {
    Set(all.filter { kinds.contains($0.kind) }.flatMap(\.extensions))
  }

  /// The CVipsShim format bits the decoder may use for bytes from `source`: the allow-list
  /// libvips' loaders are checked against before they parse anything.
  package static func decoders(from source: Source) -> UInt32 {
    all.filter { $0.sources.contains(source) }.reduce(0) { $0 | $1.decoder }
  }
}
