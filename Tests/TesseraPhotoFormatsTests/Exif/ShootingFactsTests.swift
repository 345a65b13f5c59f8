import Foundation
import TesseraImageSynthesis
import TesseraTestSupport
import Testing

@testable import TesseraPhotoFormats

/// How a photo was taken, read back from what exiftool writes as a camera does, in a JPEG and
/// in a TIFF (as TIFF-based RAW files hold it); numbers no camera records are left out, and a
/// truncated or forged header is no crash.
@Suite struct ShootingFactsTests {
  let folder = TemporaryFolder.Owned(prefix: "tessera-shooting")

  /// A small picture made by ffmpeg as `name`, with `tags` written by exiftool.
  private func photo(_ name: String, _ tags: [String]) throws -> [UInt8] {
    let path = folder.url.appendingPathComponent(name).path
    try TestMedia.make(path, from: "testsrc=size=64x48", arguments: ["-frames:v", "1"])
    try ExifTool.run(["-q", "-overwrite_original"] + tags + [path])
    return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  static let cameraTags = [
    "-Make=Canon", "-Model=Canon EOS R5", "-LensModel=RF24-70mm F2.8 L IS USM",
    "-FocalLength=35", "-FocalLengthIn35mmFormat=35", "-FNumber=2.8", "-ExposureTime=1/250",
    "-ISO=400", "-ExposureCompensation=+1/3", "-EXIF:Flash=Fired",
    "-GPSLatitude=48.858370", "-GPSLatitudeRef=N", "-GPSLongitude=2.294481",
    "-GPSLongitudeRef=E", "-GPSAltitude=35", "-GPSAltitudeRef=Above Sea Level",
  ]

  @Test(arguments: ["photo.jpg", "photo.tif"])
  func whatExiftoolWritesAsACameraIsRead(name: String) throws {
    let facts = try #require(ShootingFacts.read(photo: try photo(name, Self.cameraTags)))
    #expect(facts.make == "Canon")
    #expect(facts.model == "Canon EOS R5")
    #expect(facts.lens == "RF24-70mm F2.8 L IS USM")
    #expect(facts.focalLength == 35)
    #expect(facts.focalLength35 == 35)
    #expect(facts.aperture == 2.8)
    let exposure = try #require(facts.exposure)
    #expect(Double(exposure.numerator) / Double(exposure.denominator) == 1.0 / 250)
    #expect(facts.iso == 400)
    #expect(
      abs((facts.exposureBias ?? 0) - 1.0 / 3) < 0.01, "\(String(describing: facts.exposureBias))")
    #expect(facts.flashFired == true)
    #expect(
      abs((facts.latitude ?? 0) - 48.85837) < 0.00001, "\(String(describing: facts.latitude))")
    #expect(
      abs((facts.longitude ?? 0) - 2.294481) < 0.00001, "\(String(describing: facts.longitude))")
    #expect(facts.altitude == 35)
  }

  /// RAW files that are no TIFF keep the same tags elsewhere: a CR3 in its CMT2 box (a TIFF
  /// structure of the Exif tags), a RAF in the EXIF of the JPEG it embeds. Both are read.
  @Test func aCR3sAndARAFsSettingsAreRead() throws {
    let tiff = try photo("settings.tif", Self.cameraTags)
    let jpeg = try photo("settings.jpg", Self.cameraTags)
    let files = [
      ("CR3", RawFixtures.cr3(cmt2: tiff)), ("RAF", RawFixtures.raf(picture: jpeg)),
    ]
    for (kind, bytes) in files {
      let facts = ShootingFacts.read(photo: bytes)
      #expect(facts?.lens == "RF24-70mm F2.8 L IS USM", "\(kind): \(String(describing: facts))")
      #expect(facts?.aperture == 2.8, "\(kind)")
      #expect(facts?.iso == 400, "\(kind)")
      #expect(facts?.focalLength == 35, "\(kind)")
      #expect(facts?.flashFired == true, "\(kind)")
      let exposure = facts?.exposure
      #expect(
        exposure.map { Double($0.numerator) / Double($0.denominator) } == 1.0 / 250, "\(kind)")
      #expect(abs((facts?.latitude ?? 0) - 48.85837) < 0.00001, "\(kind)")
    }
  }

  @Test func southWestBelowSeaLevelAndNoFlash() throws {
    let facts = try #require(
      ShootingFacts.read(
        photo: try photo(
          "south.jpg",
          [
            "-Model=Pixel 8", "-EXIF:Flash=No Flash", "-GPSLatitude=33.8688", "-GPSLatitudeRef=S",
            "-GPSLongitude=70.5", "-GPSLongitudeRef=W", "-GPSAltitude=28",
            "-GPSAltitudeRef=Below Sea Level", "-ExposureTime=2", "-ExposureCompensation=-0.7",
          ])))
    #expect(facts.make == nil)
    #expect(facts.flashFired == false)
    #expect(abs((facts.latitude ?? 0) + 33.8688) < 0.00001)
    #expect(abs((facts.longitude ?? 0) + 70.5) < 0.00001)
    #expect(facts.altitude == -28)
    #expect(facts.exposure.map { $0.numerator / $0.denominator } == 2)
    #expect(abs((facts.exposureBias ?? 0) + 0.7) < 0.01)
  }

  @Test func aPhotoWithoutEXIFHasNone() throws {
    let path = folder.url.appendingPathComponent("bare.png").path
    try TestMedia.make(path, from: "testsrc=size=64x48", arguments: ["-frames:v", "1"])
    #expect(
      ShootingFacts.read(photo: Array(try Data(contentsOf: URL(fileURLWithPath: path)))) == nil)
  }

  /// A little-endian TIFF: IFD0 with Make and the Exif IFD's pointer; the Exif IFD with the
  /// given entries (tag, type, count, value or offset), their values after it.
  static func tiff(exif entries: [(Int, Int, Int, [UInt8])]) -> [UInt8] {
    func u16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    func u32(_ value: Int) -> [UInt8] { u16(value & 0xFFFF) + u16(value >> 16 & 0xFFFF) }
    let ifd0 = 8
    let ifd0Size = 2 + 2 * 12 + 4
    let make = Array("Canon\0".utf8)
    let makeOffset = ifd0 + ifd0Size
    let exifIFD = makeOffset + make.count
    let exifSize = 2 + entries.count * 12 + 4
    var values: [UInt8] = []
    var table: [UInt8] = u16(entries.count)
    for (tag, type, count, value) in entries {
      table += u16(tag) + u16(type) + u32(count)
      if value.count <= 4 {
        table += value + [UInt8](repeating: 0, count: 4 - value.count)
      } else {
        table += u32(exifIFD + exifSize + values.count)
        values += value
      }
    }
    table += u32(0)
    return Array("II".utf8) + u16(42) + u32(ifd0) + u16(2)
      + u16(0x010F) + u16(2) + u32(make.count) + u32(makeOffset)
      + u16(0x8769) + u16(4) + u32(1) + u32(exifIFD) + u32(0) + make + table + values
  }

  static func rational(_ numerator: Int, _ denominator: Int) -> [UInt8] {
    [numerator, denominator].flatMap { value in (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
  }

  @Test func numbersNoCameraRecordsAreLeftOut() throws {
    let forged = Self.tiff(exif: [
      (0x829A, 5, 1, Self.rational(7200, 1)),  // two hours
      (0x829D, 5, 1, Self.rational(28, 0)),  // f/∞: no denominator
      (0x8827, 3, 1, [0, 0]),  // ISO 0
      (0x9204, 10, 1, Self.rational(-300, 10)),  // −30 EV
      (0x9209, 3, 1, [16, 0]),  // flash off
      (0x920A, 5, 1, Self.rational(1, 100_000)),  // a hundred-thousandth of a millimetre
      (0xA405, 3, 2, [35, 0, 35, 0]),  // two values where one is
    ])
    let facts = try #require(ShootingFacts.read(photo: forged))
    #expect(facts.make == "Canon")
    #expect(facts.exposure == nil)
    #expect(facts.aperture == nil)
    #expect(facts.iso == nil)
    #expect(facts.exposureBias == nil)
    #expect(facts.flashFired == false)
    #expect(facts.focalLength == nil)
    #expect(facts.focalLength35 == nil)
  }

  @Test func aRationalPointingPastTheEndIsNone() throws {
    var forged = Self.tiff(exif: [(0x829D, 5, 1, Self.rational(28, 10))])
    // The FNumber's value offset, the Exif IFD's first entry's last four bytes: far away.
    let exifIFD = 8 + 2 + 2 * 12 + 4 + 6
    forged.replaceSubrange((exifIFD + 2 + 8)..<(exifIFD + 2 + 12), with: [0xF0, 0xFF, 0xFF, 0x7F])
    #expect(ShootingFacts.read(photo: forged)?.aperture == nil)
    #expect(ShootingFacts.read(photo: forged)?.make == "Canon")
  }

  @Test func everyTruncationIsSafe() throws {
    let jpeg = try photo("whole.jpg", Self.cameraTags)
    var readWhole = 0
    for length in stride(from: 0, through: jpeg.count, by: 7) {
      if ShootingFacts.read(photo: Array(jpeg.prefix(length)))?.latitude != nil { readWhole += 1 }
    }
    #expect(ShootingFacts.read(photo: jpeg)?.iso == 400)
    #expect(readWhole > 0)
  }
}
