import TesseraUtilities

/// What a photographer checks about how a photo was taken, from its EXIF: camera and lens,
/// focal length, aperture, shutter, ISO, exposure compensation, flash and where (GPS). Read
/// on demand for the info panel, never with the walk. Every number is checked against what a
/// camera can record; one outside is left out, never shown wrong.
public struct ShootingFacts: Equatable, Sendable {
  /// An exposure time as the camera states it, a fraction of seconds.
  public struct ExposureTime: Equatable, Sendable {
    public var numerator: Int
    public var denominator: Int

    public init(_ numerator: Int, _ denominator: Int) {
      self.numerator = numerator
      self.denominator = denominator
    }
  }

  public var make: String?
  public var model: String?
  public var lens: String?
  /// Millimetres, 0.1…10,000.
  public var focalLength: Double?
  /// The 35 mm equivalent, 1…10,000 mm.
  public var focalLength35: Int?
  /// The f-number, 0.5…256.
  public var aperture: Double?
  /// Seconds as the camera states them (numerator, denominator), 1/1,000,000 s to 1 hour.
  public var exposure: ExposureTime?
  /// ISO 1…10,000,000.
  public var iso: Int?
  /// Exposure compensation in EV, −20…20.
  public var exposureBias: Double?
  /// Whether the flash fired (bit 0 of EXIF's Flash).
  public var flashFired: Bool?
  /// Degrees, north and east positive.
  public var latitude: Double?
  public var longitude: Double?
  /// Metres above sea level (negative below), −20,000…100,000.
  public var altitude: Double?

  public init() {}

  /// The facts in the TIFF structure `exif` (IFD0, its Exif IFD and its GPS IFD, each read
  /// once); nil when none is there.
  /// - Complexity: O(entries of the three IFDs), each bounded by `ExifStructure.maxIFDEntries`.
  package static func read(in exif: ExifStructure) -> ShootingFacts? {
    guard let ifd0 = exif.firstIFD else { return nil }
    var facts = ShootingFacts()
    var exifIFD: Int?
    var gpsIFD: Int?
    let ifd0Entries = exif.entries(at: ifd0)
    for entry in ifd0Entries {
      switch entry.tag {
      case 0x010F: facts.make = exif.ascii(entry, maxLength: FeedLimits.maxExifText)
      case 0x0110: facts.model = exif.ascii(entry, maxLength: FeedLimits.maxExifText)
      case 0x8769: exifIFD = exif.integer(entry)
      case 0x8825: gpsIFD = exif.integer(entry)
      default: break
      }
    }
    // TIFF/EP (some NEFs, a CR3's CMT2) keeps the Exif tags in IFD0 itself.
    let exifEntries =
      ifd0Entries + (exifIFD.map { $0 == ifd0 ? [] : exif.entries(at: $0) } ?? [])
    for entry in exifEntries {
      switch entry.tag {
      case 0x829A:
        if let (numerator, denominator) = exif.rational(entry), numerator > 0,
          Double(numerator) / Double(denominator) <= 3600,
          Double(numerator) / Double(denominator) >= 1e-6
        {
          facts.exposure = ExposureTime(numerator, denominator)
        }
      case 0x829D: facts.aperture = exif.real(entry).flatMap { (0.5...256).contains($0) ? $0 : nil }
      case 0x8827:
        facts.iso = exif.integer(entry).flatMap { (1...10_000_000).contains($0) ? $0 : nil }
      case 0x9204:
        facts.exposureBias = exif.real(entry).flatMap { (-20...20).contains($0) ? $0 : nil }
      case 0x9209: facts.flashFired = exif.integer(entry).map { $0 & 1 == 1 }
      case 0x920A:
        facts.focalLength = exif.real(entry).flatMap { (0.1...10_000).contains($0) ? $0 : nil }
      case 0xA405:
        facts.focalLength35 = exif.integer(entry).flatMap { (1...10_000).contains($0) ? $0 : nil }
      case 0xA434: facts.lens = exif.ascii(entry, maxLength: FeedLimits.maxExifText)
      default: break
      }
    }
    if let gpsIFD, gpsIFD != ifd0, gpsIFD != exifIFD {
      readGPS(exif.entries(at: gpsIFD), in: exif, into: &facts)
    }
    return facts == ShootingFacts() ? nil : facts
  }

  /// Latitude and longitude (each three rationals, degrees minutes seconds, with their N/S,
  /// E/W reference) and altitude (a rational, below sea level when its reference byte is 1).
  private static func readGPS(
    _ entries: [ExifStructure.Entry], in exif: ExifStructure, into facts: inout ShootingFacts
  ) {
    var references: [Int: String] = [:]
    var angles: [Int: Double] = [:]
    var altitude: Double?
    var belowSeaLevel = false
    for entry in entries {
      switch entry.tag {
      case 1, 3: references[entry.tag] = exif.ascii(entry, maxLength: 2)
      case 2, 4:
        guard entry.count == 3, let degrees = exif.real(entry, index: 0),
          let minutes = exif.real(entry, index: 1), let seconds = exif.real(entry, index: 2),
          (0..<60.0).contains(minutes), (0..<60.0).contains(seconds)
        else { continue }
        angles[entry.tag] = degrees + minutes / 60 + seconds / 3600
      case 5: belowSeaLevel = entry.type == 1 && entry.count == 1 && exif.u8(entry.offset + 8) == 1
      case 6: altitude = exif.real(entry)
      default: break
      }
    }
    if let latitude = angles[2], (0...90).contains(latitude), let reference = references[1],
      ["N", "S"].contains(reference)
    {
      facts.latitude = reference == "S" ? -latitude : latitude
    }
    if let longitude = angles[4], (0...180).contains(longitude), let reference = references[3],
      ["E", "W"].contains(reference)
    {
      facts.longitude = reference == "W" ? -longitude : longitude
    }
    if let altitude, (0...100_000).contains(altitude) {
      facts.altitude = belowSeaLevel ? -min(altitude, 20_000) : altitude
    }
  }

  /// The facts in a photo's first `bytes`: a JPEG's APP1, a TIFF or TIFF-based RAW (CR2,
  /// NEF, ARW, DNG, ORF, RW2, PEF), the EXIF block of a PNG, WebP or JPEG XL container, a
  /// RAF's embedded JPEG, an MRW's TTW block, a CR3's CMT1 to CMT4 boxes. A HEIF file's Exif
  /// item lies further on: its reader passes that item's TIFF here (`read(in:)`).
  public static func read(photo bytes: [UInt8]) -> ShootingFacts? {
    if let tiff = EmbeddedMetadata.inContainer(bytes)?.tiff {
      return ExifStructure(photo: tiff).flatMap(read(in:))
    }
    if let boxes = RawContainerExif.cr3Structures(bytes) {
      var merged = ShootingFacts()
      for structure in boxes { merged.fill(from: structure.flatMap(read(in:))) }
      return merged == ShootingFacts() ? nil : merged
    }
    let tiff = RawContainerExif.embeddedEXIF(bytes) ?? bytes
    return ExifStructure(photo: tiff).flatMap(read(in:))
  }

  /// Takes what `self` lacks from `other`.
  mutating func fill(from other: ShootingFacts?) {
    guard let other else { return }
    make = make ?? other.make
    model = model ?? other.model
    lens = lens ?? other.lens
    focalLength = focalLength ?? other.focalLength
    focalLength35 = focalLength35 ?? other.focalLength35
    aperture = aperture ?? other.aperture
    exposure = exposure ?? other.exposure
    iso = iso ?? other.iso
    exposureBias = exposureBias ?? other.exposureBias
    flashFired = flashFired ?? other.flashFired
    latitude = latitude ?? other.latitude
    longitude = longitude ?? other.longitude
    altitude = altitude ?? other.altitude
  }
}
