import Foundation
import Testing

@testable import TesseraPhotoLibrary

@Suite struct LocalPhotoTests {
  static let utc = TimeZone(identifier: "UTC")!

  @Test func aWalkedFileDerivesItsNameAndFolderFromItsPath() {
    let cases: [(path: String, name: String, folder: String)] = [
      ("/photos/2024/IMG_0001.jpg", "IMG_0001.jpg", "/photos/2024"),
      ("/a.jpg", "a.jpg", "/"),
      ("a.jpg", "a.jpg", "."),
      ("relative/b.png", "b.png", "relative"),
      ("/photos/été/café crème.heic", "café crème.heic", "/photos/été"),
    ]
    for (path, name, folder) in cases {
      let file = WalkedFile(path: path, size: 1, modified: Date(timeIntervalSince1970: 0))
      #expect(file.name == name, "\(path)")
      #expect(String(file.nameSlice) == name, "\(path)")
      #expect(file.folder == folder, "\(path)")
    }
  }

  @Test func readingAHeaderChangesOnlyTheCopyThatReadIt() {
    let file = WalkedFile(
      path: "/p/a.jpg", size: 10, modified: Date(timeIntervalSince1970: 86_400))
    let walked = LocalPhoto(file: file, zone: Self.utc)
    #expect(walked.headerRead == false)
    #expect(walked.header == nil)
    let header = PhotoHeader(
      pixelSize: PixelSize(width: 40, height: 30),
      exif: ExifFacts(taken: WallClockTime(exif: "2024:05:01 14:30:00")))
    let read = walked.reading(header)
    #expect(read.headerRead)
    #expect(read.header == header)
    #expect(read.file == file)
    #expect(read.modified == walked.modified)
    #expect(read.taken == WallClockTime(exif: "2024:05:01 14:30:00"))
    // The walked copy is untouched: values, whatever they share.
    #expect(walked.headerRead == false)
    #expect(walked.taken == walked.modified)
    #expect(walked != read)
  }

  @Test func settingAFieldKeepsTheOthers() {
    let file = WalkedFile(path: "/p/a.jpg", size: 10, modified: Date(timeIntervalSince1970: 0))
    var photo = LocalPhoto(file: file, header: PhotoHeader(), zone: Self.utc)
    let copy = photo
    photo.headerRead = false
    #expect(photo.header == PhotoHeader())
    #expect(photo.file == file)
    #expect(copy.headerRead)
    photo.file.size = 20
    #expect(photo.file.size == 20)
    #expect(copy.file.size == 10)
    #expect(photo.headerRead == false)
    // Equal by value, not by shared storage.
    var same = copy
    same.headerRead = true
    #expect(same == copy)
  }
}
