import Foundation

/// TesseraFeeds' readers of outside input, each with the invariant it must keep on any bytes:
/// never trap, and whatever is accepted is within `FeedLimits` (sizes, aspects, pages) and
/// points only to http(s) addresses with a host.
extension FuzzHarnesses {
  static let moduleHarnesses: [String: @Sendable (UnsafeRawBufferPointer) -> Void] = [
    // A Flickr feed body (JSON or JSONP, Flickr's `\'` quirk): parsed or refused with a
    // FeedError; every photo's addresses are web addresses and its size is within limits.
    "flickr-feed": { bytes in
      guard let page = try? FlickrFeedParser.parse(Data(bytes)) else { return }
      precondition(!page.items.isEmpty)
      if let next = page.nextPage { precondition((2...FeedLimits.maxPage).contains(next)) }
      for photo in page.items {
        FeedInvariants.checkWeb(photo.mediaURL)
        FeedInvariants.checkWeb(photo.link)
        FeedInvariants.check(photo.mediaPixelSize)
        let model = PhotoViewModel(photo: photo)
        if let aspect = model.aspectRatio { precondition(FeedLimits.aspects.contains(aspect)) }
        for (width, height) in [(75, 75), (300, 200), (Int.max, 1), (0, Int.max)] {
          FeedInvariants.checkWeb(model.mediaURL(covering: width, height))
          FeedInvariants.checkWeb(model.mediaURL(covering: width, height, cropToSquare: true))
        }
      }
    },
    // A description's HTML: plain text, summary and the first `<img>` size, which is nil or
    // within limits.
    "html-description": { bytes in
      let html = String(decoding: bytes, as: UTF8.self)
      _ = HTMLText.plainText(html)
      _ = HTMLText.summary(html)
      _ = HTMLText.decodingEntities(html)
      FeedInvariants.check(HTMLText.firstImageSize(html))
    },
    // The users JSON: parsed or refused; usernames unique and non-blank, avatars web
    // addresses or none.
    "users": { bytes in
      guard let page = try? UsersParser.parse(Data(bytes)) else { return }
      precondition(Set(page.items.map(\.username)).count == page.items.count)
      for user in page.items {
        precondition(!user.username.trimmingCharacters(in: .whitespaces).isEmpty)
        if let avatar = user.avatarURL { FeedInvariants.checkWeb(avatar) }
        _ = UserViewModel(user: user)
      }
    },
    // A local file's first bytes: a size within limits, or none.
    "image-header": { bytes in
      FeedInvariants.check(ImageHeader.pixelSize(Array(bytes)))
    },
    // A photo's first bytes (JPEG APP1 or a TIFF header): EXIF facts within their bounds,
    // or none; the header's shown size within limits whatever the orientation claims.
    "exif": { bytes in
      let prefix = Array(bytes)
      FeedInvariants.check(ExifReader.facts(prefix))
      FeedInvariants.check(PhotoHeader(bytes: prefix).pixelSize)
    },
    // A HEIC/AVIF file's first bytes (ISO BMFF boxes: meta, iloc, iinf, iref, iprp): the shown
    // size within limits or none; the Exif item's extent within the largest file read and,
    // once cut to the bytes, within them; EXIF facts within their bounds and never an
    // orientation (libheif turns HEIF images itself). The same bytes as an Exif item too.
    "heif-header": { bytes in
      let prefix = Array(bytes)
      let heif = HEIFHeader(bytes: prefix)
      if let heif {
        FeedInvariants.check(heif.pixelSize)
        if let exif = heif.exif {
          precondition((0...FeedLimits.maxLocalFileBytes).contains(exif.offset))
          if let length = exif.length {
            precondition((1...FeedLimits.maxLocalFileBytes).contains(length))
          }
          let limit = FeedLimits.maxHEIFExifBytes
          if let range = exif.range(inFileOf: prefix.count, limit: limit) {
            precondition(range.lowerBound == exif.offset && range.upperBound <= prefix.count)
            precondition((1...limit).contains(range.count))
          }
        }
      }
      let header = PhotoHeader(bytes: prefix)
      FeedInvariants.check(header.pixelSize)
      FeedInvariants.check(header.exif)
      if heif != nil {
        precondition(header.pixelSize == heif?.pixelSize)
        precondition(header.exif?.orientation == nil)
      }
      if let tiff = HEIFHeader.tiff(inExifItem: prefix) {
        precondition(tiff.count >= 8 && tiff.count <= prefix.count - 4)
        FeedInvariants.check(ExifReader.facts(tiff))
      }
      // The bytes as a file's start whose `meta` comes later: the next box past them, if
      // any, is past them and inside the file (twice their length, for the walk).
      if let next = HEIFHeader.boxAfterPrefix(prefix, fileSize: 2 * prefix.count + 8) {
        precondition(next >= prefix.count && next < 2 * prefix.count + 8)
      }
    },
    // A photo's first bytes as each container's metadata reader sees them (PNG chunks, WebP
    // chunks, JPEG XL boxes, JPEG XMP/APP13 segments, TIFF tags, RAF/MRW/CR3), and the same
    // bytes as an XMP packet, IPTC datasets, an ImageMagick raw profile and a PNG's tail:
    // dates within their bounds, found blocks within the bytes, a further read's offset past
    // the bytes walked.
    "photo-metadata": { bytes in
      let prefix = Array(bytes)
      FeedInvariants.check(EmbeddedMetadata.facts(prefix))
      for scan in [
        PNGChunks.metadata(prefix), WebPChunks.metadata(prefix), JXLBoxes.metadata(prefix),
        WebPChunks.chunks(prefix, from: 0), JXLBoxes.boxes(prefix, from: 0),
      ] {
        for block in [scan.found.tiff, scan.found.xmp, scan.found.iim] {
          precondition((block?.count ?? 0) <= prefix.count)
        }
        if let next = scan.next { precondition(next >= 0) }
        FeedInvariants.check(scan.found.facts(keepsOrientation: false))
      }
      FeedInvariants.check(PNGChunks.tailMetadata(prefix).facts(keepsOrientation: false))
      FeedInvariants.check(RawContainerExif.facts(prefix))
      FeedInvariants.check(ShootingFacts.read(photo: prefix))
      // The bytes cut in two as a TIFF's head and a window read further on (IFD0 at the end):
      // every offset read lands in one of them or reads as absent.
      if prefix.count >= 10 {
        let cut = 8 + Int(prefix[prefix.count - 1]) % (prefix.count - 8)
        let gap = Int(prefix[prefix.count - 2]) * 97
        if let split = ExifStructure(
          tiffHead: Array(prefix[..<cut]), window: Array(prefix[cut...]), at: cut + gap,
          fileLength: prefix.count + gap)
        {
          FeedInvariants.check(ExifReader.facts(in: split))
          FeedInvariants.check(ShootingFacts.read(in: split))
        }
      }
      precondition((PNGRawProfile.bytes(prefix)?.count ?? 0) <= PNGRawProfile.maxProfileBytes)
      let tiffBlocks = TIFFMetadataTags.blocks(prefix)
      for block in [tiffBlocks.xmp, tiffBlocks.iim] {
        precondition((block?.count ?? 0) <= prefix.count)
      }
      let segments = JPEGMetadataSegments(prefix)
      FeedInvariants.check(ExifFacts(taken: segments.xmp.flatMap(XMPDates.taken)))
      FeedInvariants.check(ExifFacts(taken: XMPDates.taken(prefix)))
      FeedInvariants.check(ExifFacts(taken: IPTCDates.taken(prefix)))
      _ = JPEGMetadataSegments.iptc(inResources: prefix[...]).flatMap(IPTCDates.taken)
    },
    // A video's bytes as each container's walk sees them (MP4/QuickTime boxes, Matroska
    // elements, AVI chunks), as a whole file and as the first bytes of a 1 TiB one, then read
    // on where each walk says, as the header reader does: a duration and a creation time
    // within their bounds or none, and every further offset within the file, never behind
    // the window it came from.
    "video-container": { bytes in
      let file = Array(bytes)
      _ = VideoContainer(sniffing: file)
      for container in VideoContainer.allCases {
        for fileSize in [file.count, FeedLimits.maxLocalVideoBytes] {
          var scan = container.scan(file, at: 0, fileSize: fileSize)
          FeedInvariants.check(scan.facts)
          var reached = 0
          for _ in 0..<4 {
            guard let next = scan.next else { break }
            precondition(next >= reached && next < fileSize)
            guard next > reached, next < file.count else { break }
            reached = next
            scan = container.scan(Array(file[next...]), at: next, fileSize: fileSize)
            FeedInvariants.check(scan.facts)
          }
        }
      }
      let header = PhotoHeader(bytes: file)
      FeedInvariants.check(header.exif)
      FeedInvariants.check(VideoFacts(duration: header.duration))
    },
  ]
}

/// The checks every harness shares.
enum FeedInvariants {
  static func checkWeb(_ url: URL) {
    precondition(FeedLimits.networkSchemes.contains(url.scheme?.lowercased() ?? ""))
    precondition(!(url.host ?? "").isEmpty)
  }

  /// EXIF facts within their bounds: orientation 1…8, a printable model of at most
  /// `FeedLimits.maxExifText` bytes, a date whose year is plausible and whose titles format.
  static func check(_ facts: ExifFacts?) {
    guard let facts else { return }
    if let orientation = facts.orientation { precondition((1...8).contains(orientation)) }
    if let model = facts.model {
      precondition(!model.isEmpty && model.utf8.count <= FeedLimits.maxExifText)
      precondition(model.utf8.allSatisfy { (0x20...0x7E).contains($0) })
    }
    if let taken = facts.taken {
      let year = taken.civil.year
      precondition((1800...9999).contains(year))
      _ = (taken.dayTitle, taken.monthTitle, taken.description)
    }
  }

  /// A video's facts within their bounds: a positive duration of at most
  /// `VideoFacts.maxDuration` in whole hundredths, a creation time within 1970…2100.
  /// Camera settings within what a camera records (`ShootingFacts`' own bounds).
  static func check(_ facts: ShootingFacts?) {
    guard let facts else { return }
    for text in [facts.make, facts.model, facts.lens].compactMap({ $0 }) {
      precondition(!text.isEmpty && text.utf8.count <= FeedLimits.maxExifText)
      precondition(text.utf8.allSatisfy { (0x20...0x7E).contains($0) })
    }
    if let value = facts.focalLength { precondition((0.1...10_000).contains(value)) }
    if let value = facts.focalLength35 { precondition((1...10_000).contains(value)) }
    if let value = facts.aperture { precondition((0.5...256).contains(value)) }
    if let exposure = facts.exposure {
      precondition(exposure.numerator > 0 && exposure.denominator > 0)
      precondition(
        (1e-6...3600).contains(Double(exposure.numerator) / Double(exposure.denominator)))
    }
    if let value = facts.iso { precondition((1...10_000_000).contains(value)) }
    if let value = facts.exposureBias { precondition((-20...20).contains(value)) }
    if let value = facts.latitude { precondition((-90...90).contains(value)) }
    if let value = facts.longitude { precondition((-180...180).contains(value)) }
    if let value = facts.altitude { precondition((-20_000...100_000).contains(value)) }
  }

  static func check(_ facts: VideoFacts) {
    if let duration = facts.duration {
      precondition(duration.isFinite && duration > 0 && duration <= VideoFacts.maxDuration)
      precondition((duration * 100).rounded() / 100 == duration)
    }
    if let created = facts.created { precondition(VideoFacts.createdRange.contains(created)) }
  }

  static func check(_ size: PixelSize?) {
    guard let size else { return }
    precondition(FeedLimits.imageSides.contains(size.width))
    precondition(FeedLimits.imageSides.contains(size.height))
    precondition(FeedLimits.aspects.contains(size.aspectRatio ?? .nan))
  }
}
