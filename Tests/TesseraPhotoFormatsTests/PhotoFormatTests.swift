import CVipsShim
import Testing

@testable import TesseraPhotoFormats

/// The format table is the one answer to "which files, which bytes, which decoder, from
/// where": each question asked of it agrees with the others.
@Suite struct PhotoFormatTests {
  @Test func everyExtensionNamesOneFormat() {
    var seen: [String: String] = [:]
    for format in PhotoFormat.all {
      #expect(!format.extensions.isEmpty, "\(format) lists no extension")
      for name in format.extensions {
        #expect(name == name.lowercased(), "\(name) of \(format) is not lower-case")
        #expect(seen[name] == nil, "\(name) is both \(seen[name] ?? "") and \(format)")
        seen[name] = format.name
      }
    }
  }

  @Test(
    arguments: [
      ("IMG_1.JPG", "JPEG"), ("a.jpe", "JPEG"), ("b.HEIC", "HEIF"), ("c.avif", "AVIF"),
      ("scan.tif", "TIFF"), ("d.jxl", "JPEG XL"), ("e.CR3", "camera RAW"),
      ("f.dng", "camera RAW"), ("clip.MOV", "QuickTime"), ("g.webm", "WebM"),
    ])
  func aFileIsKnownByItsExtensionInAnyCase(name: String, format: String) {
    let suffix = name.split(separator: ".").last ?? ""
    #expect(PhotoFormat(extension: suffix)?.name == format)
  }

  @Test(arguments: ["txt", "svg", "pdf", "qoi", "tga", "xcf", "", "jpgx"])
  func otherExtensionsAreNoFormat(suffix: String) {
    #expect(PhotoFormat(extension: suffix) == nil)
  }

  /// Every signature the sniffer knows is one format's, and that format's row names it back.
  @Test func everySignatureBelongsToOneFormat() {
    for signature in ImageSignature.allCases {
      let formats = PhotoFormat.all.filter { $0.signature == signature }
      #expect(formats.count == 1, "\(signature) is \(formats)")
      #expect(PhotoFormat(signature: signature)?.signature == signature)
      #expect(signature.mimeType == formats.first?.mimeType)
    }
  }

  /// The network gets the photo formats every browser shows; a folder also TIFF and JPEG
  /// XL (and RAW files by their JPEG preview); nothing else is ever handed to libvips.
  @Test func theDecodersFollowWhereTheBytesComeFrom() {
    let network = PhotoFormat.decoders(from: .network)
    let local = PhotoFormat.decoders(from: .localFolder)
    #expect(network == TESSERA_FORMATS_NETWORK.rawValue)
    #expect(local == TESSERA_FORMATS_LOCAL.rawValue)
    #expect(network & TESSERA_FORMAT_TIFF.rawValue == 0)
    #expect(network & TESSERA_FORMAT_JXL.rawValue == 0)
    for format in PhotoFormat.all where format.kind == .video {
      #expect(format.decoder == 0, "\(format) is handed to libvips")
    }
  }

  @Test func theKindsPartitionTheExtensions() {
    let still = PhotoFormat.extensions(of: [.still])
    let raw = PhotoFormat.extensions(of: [.raw])
    let video = PhotoFormat.extensions(of: [.video])
    #expect(still.isDisjoint(with: raw) && still.isDisjoint(with: video))
    #expect(raw == RawPreviewLocator.extensions)
    #expect(video == VideoFile.extensions)
    #expect(still.isSuperset(of: ["jpg", "png", "webp", "gif", "heic", "avif", "tiff", "jxl"]))
  }
}
