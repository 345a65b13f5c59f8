import TesseraTestSupport
import Testing

@testable import TesseraPhotoFormats

/// A motion photo's video is found where its XMP says, and only when that lies in the file.
@Suite struct JPEGMotionPhotoTests {
  /// A JPEG header with `xmp`, and the size of its file with `trailer` bytes after it.
  static func photo(_ xmp: [UInt8], trailer: Int) -> (header: [UInt8], fileSize: Int) {
    let jpeg = MotionPhotoFixtures.withXMP(MotionPhotoFixtures.bareJPEG, xmp)
    return (jpeg, jpeg.count + trailer)
  }

  @Test func googlesMicroVideoCountsFromTheEnd() {
    let (header, size) = Self.photo(MotionPhotoFixtures.microVideo(offset: "5000"), trailer: 5_000)
    #expect(JPEGMotionPhoto.videoRange(inJPEG: header, fileSize: size) == size - 5_000..<size)
    // The flag off: no video, whatever the offset says.
    let off = Self.photo(MotionPhotoFixtures.microVideo(offset: "5000", flag: "0"), trailer: 5_000)
    #expect(JPEGMotionPhoto.videoRange(inJPEG: off.header, fileSize: off.fileSize) == nil)
  }

  @Test func theContainersMotionItemCountsBackFromTheItemsAfterIt() {
    let only = Self.photo(
      MotionPhotoFixtures.container([("MotionPhoto", "3000", "0")]), trailer: 3_000)
    #expect(
      JPEGMotionPhoto.videoRange(inJPEG: only.header, fileSize: only.fileSize)
        == only.fileSize - 3_000..<only.fileSize)
    // A gain map before it does not move it; an item after it (with its padding) does.
    let between = Self.photo(
      MotionPhotoFixtures.container([
        ("GainMap", "700", "0"), ("MotionPhoto", "3000", "0"), ("Depth", "200", "8"),
      ]), trailer: 3_908)
    #expect(
      JPEGMotionPhoto.videoRange(inJPEG: between.header, fileSize: between.fileSize)
        == between.fileSize - 3_208..<between.fileSize - 208)
  }

  /// The offset and length are a stranger's: outside the file, over the JPEG's own first
  /// bytes, negative, not a number or absurdly large, they name no video.
  @Test func aPlaceOutsideTheFileIsIgnored() {
    let trailer = 1_000
    for offset in [
      "1001000", "99999999999999999999", "9223372036854775807", "-5", "0", "1e3", " 100", "",
    ] {
      let (header, size) = Self.photo(
        MotionPhotoFixtures.microVideo(offset: offset), trailer: trailer)
      #expect(JPEGMotionPhoto.videoRange(inJPEG: header, fileSize: size) == nil, "\(offset)")
      // The whole file but its first bytes: the JPEG's own SOI would be inside the video.
      let whole = String(size - 4)
      let all = Self.photo(MotionPhotoFixtures.microVideo(offset: whole), trailer: trailer)
      #expect(JPEGMotionPhoto.videoRange(inJPEG: all.header, fileSize: all.fileSize) == nil)
    }
    for items in [
      [("MotionPhoto", "5000", "0")], [("MotionPhoto", "0", "0")], [("MotionPhoto", "-1", "0")],
      [("MotionPhoto", "500", "0"), ("Depth", "9223372036854775807", "9223372036854775807")],
      [("MotionPhoto", "500", "0"), ("Depth", "5000", "0")],
    ] {
      let (header, size) = Self.photo(MotionPhotoFixtures.container(items), trailer: trailer)
      #expect(JPEGMotionPhoto.videoRange(inJPEG: header, fileSize: size) == nil, "\(items)")
    }
    // The range itself: inside the file, after the JPEG's first bytes.
    #expect(JPEGMotionPhoto.validated(start: 16, length: 84, fileSize: 100) == 16..<100)
    #expect(JPEGMotionPhoto.validated(start: 15, length: 85, fileSize: 100) == nil)
    #expect(JPEGMotionPhoto.validated(start: 16, length: 85, fileSize: 100) == nil)
    #expect(JPEGMotionPhoto.validated(start: 50, length: .max, fileSize: 100) == nil)
    #expect(JPEGMotionPhoto.validated(start: .min, length: 10, fileSize: 100) == nil)
  }

  /// A packet that names neither `MicroVideo` nor `MotionPhoto` is not parsed; a JPEG without
  /// XMP, or bytes of another format, have no video.
  @Test func otherPhotosHaveNone() {
    let plain = Self.photo(XMPNamespaces.packet(attributes: "xmp:Rating=\"3\""), trailer: 1_000)
    #expect(JPEGMotionPhoto.videoRange(inJPEG: plain.header, fileSize: plain.fileSize) == nil)
    #expect(
      JPEGMotionPhoto.videoRange(inJPEG: MotionPhotoFixtures.bareJPEG, fileSize: 10_000) == nil)
    let xmp = MotionPhotoFixtures.microVideo(offset: "500")
    #expect(JPEGMotionPhoto.videoRange(inJPEG: Array("GIF89a".utf8) + xmp, fileSize: 10_000) == nil)
  }
}
