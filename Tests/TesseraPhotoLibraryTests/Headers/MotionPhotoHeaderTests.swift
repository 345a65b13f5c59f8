import Foundation
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraPhotoLibrary

/// A motion photo read as the library reads it (`LocalPhotoHeaderReader`): its appended video's
/// place is in its header, and it names exactly the video's bytes.
@Suite(.timeLimit(.minutes(1))) struct MotionPhotoHeaderTests {
  /// Writes `bytes` to `name` in a new folder and reads its header.
  static func header(_ bytes: [UInt8], _ name: String = "PXL_1.MP.jpg") async throws -> PhotoHeader
  {
    try await TemporaryFolder.with { folder in
      let path = folder.appendingPathComponent(name).path
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      return try #require(LocalPhotoHeaderReader().header(ofFileAt: path))
    }
  }

  @Test func aHandMadeMotionPhotosVideoIsFoundAndTheRestOfItsHeaderStays() async throws {
    let video = [UInt8](repeating: 0xAB, count: 40_000)
    for xmp in [
      MotionPhotoFixtures.microVideo(offset: String(video.count)),
      MotionPhotoFixtures.container([("MotionPhoto", String(video.count), "0")]),
    ] {
      let jpeg = MotionPhotoFixtures.withXMP(MotionPhotoFixtures.bareJPEG, xmp)
      let header = try await Self.header(jpeg + video)
      #expect(header.appendedMotion == jpeg.count..<jpeg.count + video.count)
      #expect(header.pixelSize == PixelSize(width: 640, height: 480))
    }
    // The same XMP with an offset past the file's start: no motion, the photo is as before.
    let hostile = MotionPhotoFixtures.withXMP(
      MotionPhotoFixtures.bareJPEG, MotionPhotoFixtures.microVideo(offset: "999999999"))
    let header = try await Self.header(hostile + video)
    #expect(header.appendedMotion == nil)
    #expect(header.pixelSize == PixelSize(width: 640, height: 480))
  }

  /// A real JPEG and a real MP4 made by ffmpeg, joined as a Pixel joins them: the range read
  /// from the header holds the MP4's bytes, `ftyp` first.
  @Test(.enabled(if: GeneratedVideo.canMake, "ffmpeg is not installed (Debian's ffmpeg package)"))
  func aRealJPEGWithARealMP4AppendedNamesTheMP4sBytes() async throws {
    try await TemporaryFolder.with { folder in
      let clip = folder.appendingPathComponent("motion.mp4").path
      try TestMedia.make(
        clip, from: "testsrc=duration=1:size=64x48:rate=10", arguments: ["-pix_fmt", "yuv420p"])
      let mp4 = [UInt8](try Data(contentsOf: URL(fileURLWithPath: clip)))
      let image = [UInt8](
        try TestImages.encode(
          TestImages.gradientPixels(width: 160, height: 120), width: 160, height: 120, as: ".jpg"))
      let jpeg = MotionPhotoFixtures.withXMP(
        image, MotionPhotoFixtures.container([("MotionPhoto", String(mp4.count), "0")]))
      let path = folder.appendingPathComponent("PXL_2.MP.jpg").path
      try Data(jpeg + mp4).write(to: URL(fileURLWithPath: path))
      let header = try #require(LocalPhotoHeaderReader().header(ofFileAt: path))
      let range = try #require(header.appendedMotion)
      #expect(header.pixelSize == PixelSize(width: 160, height: 120))
      let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
      #expect(Array(file[range]) == mp4)
      #expect(Array(file[range].dropFirst(4).prefix(4)) == Array("ftyp".utf8))
      let photo = LocalPhoto(
        file: WalkedFile(path: path, size: file.count, modified: Date()), header: header)
      #expect(
        photo.motion
          == MotionSource(
            path: path, byteOffset: Int64(jpeg.count), byteLength: Int64(mp4.count)))
    }
  }
}
