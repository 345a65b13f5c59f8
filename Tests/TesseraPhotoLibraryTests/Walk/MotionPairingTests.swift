import Foundation
import TesseraPhotoFormats
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraPhotoLibrary

/// A Live Photo (an image and a video of one name in one folder) is one photo, shown by its
/// image, with its video noted beside it; the walk lists no video of a pair.
@Suite(.timeLimit(.minutes(1))) struct MotionPairingTests {
  func touch(_ path: String, in root: URL) throws {
    let url = root.appendingPathComponent(path)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: url)
  }

  /// The walk's files by name, with their motion and RAW companions.
  func walk(_ root: URL, videos: Bool) -> [String: (motion: String?, raw: String?)] {
    var files: [WalkedFile] = []
    FolderWalker(roots: [root.path], includeVideos: videos).walk { batch in
      files += batch.files
      return true
    }
    return Dictionary(
      uniqueKeysWithValues: files.map { ($0.name, ($0.motionCompanion, $0.rawCompanion)) })
  }

  static let names = [
    "IMG_1.HEIC", "IMG_1.MOV",  // Apple's Live Photo
    "IMG_2.jpg", "IMG_2.mov",  // lower case
    "IMG_3.JPEG", "IMG_3.mp4",
    "IMG_4.CR2", "IMG_4.JPG", "IMG_4.MOV",  // RAW + JPEG + MOV: the JPEG carries both
    "clip.MOV",  // a video alone
    "IMG_6.Mov", "IMG_6.heif",  // the video's extension in mixed case: no pair
    "img_7.jpg", "IMG_7.MOV",  // stems differ in case: no pair
    "IMG_8.png", "IMG_8.mov",  // no phone writes a PNG Live Photo
    "sub/IMG_9.heic", "IMG_9.MOV",  // another folder
  ]

  @Test(arguments: [false, true])
  func anImageAndAVideoOfOneNameAreOnePhoto(videos: Bool) async throws {
    try await TemporaryFolder.with(prefix: "tessera-walk-live") { root in
      for name in Self.names { try touch(name, in: root) }
      let files = walk(root, videos: videos)
      let pairs = ["IMG_1.HEIC": "IMG_1.MOV", "IMG_2.jpg": "IMG_2.mov", "IMG_3.JPEG": "IMG_3.mp4"]
      for (image, video) in pairs {
        #expect(files[image]?.motion == video)
        #expect(files[video] == nil, "\(video) is in its pair, not listed")
      }
      #expect(files["IMG_4.JPG"]?.motion == "IMG_4.MOV")
      #expect(files["IMG_4.JPG"]?.raw == "IMG_4.CR2")
      #expect(files["IMG_4.CR2"] == nil && files["IMG_4.MOV"] == nil)
      for still in ["IMG_6.heif", "img_7.jpg", "IMG_8.png", "IMG_9.heic"] {
        #expect(files[still] != nil && files[still]?.motion == nil, "\(still)")
      }
      // The videos of no pair are listed as they were: only when the walk lists videos.
      for video in ["clip.MOV", "IMG_6.Mov", "IMG_7.MOV", "IMG_8.mov", "IMG_9.MOV"] {
        #expect((files[video] != nil) == videos, "\(video)")
      }
      #expect(files.count == (videos ? 13 : 8))
    }
  }

  /// Two images of one stem (a HEIC and its JPEG export) and one video: one image takes it,
  /// the same one whatever order the folder lists them in; the other stays a still photo.
  @Test func twoImagesOfOneStemShareNoVideo() {
    func file(_ name: String) -> WalkedFile {
      WalkedFile(path: "/p/" + name, size: 1, modified: Date(timeIntervalSince1970: 0))
    }
    for order in [
      ["IMG_1.JPG", "IMG_1.HEIC", "IMG_1.MOV"], ["IMG_1.MOV", "IMG_1.HEIC", "IMG_1.JPG"],
    ] {
      var files = [file("before.jpg")] + order.map(file)
      let removed = MotionPairing.pair(&files, from: 1, unlisted: [])
      #expect(removed == 1)
      #expect(files.map(\.name).sorted() == ["IMG_1.HEIC", "IMG_1.JPG", "before.jpg"])
      let byName = Dictionary(uniqueKeysWithValues: files.map { ($0.name, $0.motionCompanion) })
      #expect(byName["IMG_1.HEIC"] == .some("IMG_1.MOV"))
      #expect(byName["IMG_1.JPG"] == .some(nil))
      // Files of the folder before `start` are not paired.
      #expect(byName["before.jpg"] == .some(nil))
    }
    // An unlisted video pairs the same way, removing nothing.
    var files = [file("IMG_2.heic")]
    #expect(MotionPairing.pair(&files, from: 0, unlisted: ["IMG_2.MOV", "notes.txt"]) == 0)
    #expect(files.first?.motionCompanion == "IMG_2.MOV")
  }

  /// The catalog keeps the video in one byte and gives the name back as it was written; the
  /// photo's `motion` names the video's path, read whole.
  @Test func theCatalogKeepsTheVideoAndThePhotoNamesItsPath() throws {
    let catalog = PhotoCatalog()
    for (index, names) in [
      ("IMG_1.HEIC", "IMG_1.MOV"), ("IMG_2.jpg", "IMG_2.mov"), ("IMG_3.JPG", "IMG_3.MP4"),
      ("IMG_4.jpeg", "IMG_4.mp4"),
    ].enumerated() {
      let file = WalkedFile(
        path: "/p/" + names.0, size: 1, modified: Date(timeIntervalSince1970: 0),
        rawCompanion: index == 0 ? "IMG_1.DNG" : nil, motionCompanion: names.1)
      let at = try #require(
        catalog.append(
          file, folder: "/p", modified: WallClockTime(seconds: 0), header: nil,
          nameRank: index, run: 0))
      let photo = catalog.photo(at: at)
      #expect(photo.file.motionCompanion == names.1)
      #expect(photo.motion == MotionSource(path: "/p/" + names.1))
      #expect(photo.motion?.isCompanionFile == true)
      #expect(photo.file.rawCompanion == (index == 0 ? "IMG_1.DNG" : nil))
    }
    #expect(MemoryLayout<PhotoCatalog.Record>.stride == 96)
    #expect(MotionPairing.code(ofExtension: "Mov") == 0)
    #expect(MotionPairing.code(ofExtension: "avi") == 0)
    #expect(MotionPairing.suffix(ofCode: 0) == nil && MotionPairing.suffix(ofCode: 0x7F) == nil)
  }

  /// A motion photo's appended video, as its header said, comes back from the catalog (set
  /// when the header is read later, too) as a range of the photo's own file.
  @Test func theCatalogKeepsAnAppendedVideosPlace() throws {
    let catalog = PhotoCatalog()
    let file = WalkedFile(
      path: "/p/PXL_1.MP.jpg", size: 5_000, modified: Date(timeIntervalSince1970: 0))
    let at = try #require(
      catalog.append(
        file, folder: "/p", modified: WallClockTime(seconds: 0), header: nil, nameRank: 0, run: 0
      ))
    #expect(catalog.photo(at: at).motion == nil)
    catalog.setHeader(PhotoHeader(appendedMotion: 3_000..<5_000), at: at)
    let photo = catalog.photo(at: at)
    #expect(photo.header?.appendedMotion == 3_000..<5_000)
    #expect(
      photo.motion == MotionSource(path: "/p/PXL_1.MP.jpg", byteOffset: 3_000, byteLength: 2_000))
    #expect(photo.motion?.isCompanionFile == false)
    // A header read again without it (the file was rewritten) drops it.
    catalog.setHeader(PhotoHeader(), at: at)
    #expect(catalog.photo(at: at).motion == nil)
  }
}
