import Foundation
import TesseraTestSupport
import Testing

@testable import TesseraPhotoLibrary

@Suite struct DiskBackedStringsTests {
  static let samples: [String] = [
    "/photos/2024/IMG_0001.JPG", "", "é", "/Fotos/Grüße/写真 1.heic",
    String(repeating: "long/", count: 10), "x",
  ]

  @Test func stringsReadBackFromTheBufferAndFromTheFile() async {
    await TemporaryFolder.with { folder in
      let strings = DiskBackedStrings(folders: [folder.path], bufferLimit: 16)
      #expect(strings.isOnDisk)
      var stored: [(DiskBackedStrings.Location, String)] = []
      for round in 0..<20 {
        for sample in Self.samples {
          let text = "\(round)\(sample)"
          stored.append((strings.append(text), text))
        }
      }
      // Each string reads back, whether written out already or still in the buffer.
      for (location, text) in stored { #expect(strings.string(at: location) == text) }
      #expect(strings.count == stored.map { $0.1.utf8.count }.reduce(0, +))
      #expect(strings.bytesInMemory < 16)
    }
  }

  @Test func theFileHasNoNameInItsFolder() async {
    await TemporaryFolder.with { folder in
      let strings = DiskBackedStrings(folders: [folder.path], bufferLimit: 8)
      let location = strings.append("/photos/a.jpg")
      #expect(strings.isOnDisk)
      #expect((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) == [])
      #expect(strings.string(at: location) == "/photos/a.jpg")
    }
  }

  @Test func withoutAFolderToWriteInTheStringsStayInMemory() {
    let strings = DiskBackedStrings(folders: ["/proc/no-such-folder/tessera"], bufferLimit: 8)
    #expect(!strings.isOnDisk)
    let stored = Self.samples.map { (strings.append($0), $0) }
    for (location, text) in stored { #expect(strings.string(at: location) == text) }
    #expect(strings.bytesInMemory == Self.samples.map(\.utf8.count).reduce(0, +))
  }
}
