import Foundation

/// TesseraImages' parsers of outside input, each with the invariant it must keep on any bytes.
extension FuzzHarnesses {
  static let moduleHarnesses: [String: @Sendable (UnsafeRawBufferPointer) -> Void] = [
    // Response bodies: the sniffer (TesseraUtilities' ImageSignature) looks at 16 bytes at
    // most and names an image type or none; the validator accepts or throws, never traps.
    "image-sniffer": { bytes in
      let data = Data(bytes)
      let format = ImageSignature(sniffing: data)
      precondition(format == ImageSignature(sniffing: data.prefix(ImageSignature.maxBytesRead)))
      if let format { precondition(format.mimeType.hasPrefix("image/")) }
      let declared = String(decoding: data.prefix(40), as: UTF8.self)
      for contentType in [nil, declared, "application/octet-stream"] {
        let response = DataResponse(
          headers: contentType.map { ["Content-Type": $0] } ?? [:], data: data)
        _ = try? ResponseValidator.validate(response, maxBytes: 1 << 20)
      }
    },
    // Header text ("Name: value" lines): whatever Cache-Control, Age, Expires, Date or
    // Last-Modified say, a stored response is fresh for no more than the limit.
    "http-cache-metadata": { bytes in HTTPMetadataHarness.run(bytes) },
    // A disk-cache file and a ledger, as another process (or a crash) may have left them:
    // parsed or refused, and what parses survives a round trip.
    "disk-cache-record": { bytes in
      let data = Data(bytes)
      if let entry = DiskCacheRecord.decode(data) {
        let again = DiskCacheRecord.encode(entry.data, metadata: entry.metadata, for: entry.key)
          .flatMap(DiskCacheRecord.decode)
        precondition(again?.key == entry.key && again?.data == entry.data)
      }
      if let total = DiskCacheLedger.parse(data) {
        precondition(total >= 0 && DiskCacheLedger.parse(DiskCacheLedger.text(total)) == total)
      }
    },
    // A thumbnail PNG from the shared freedesktop.org folders, which any program may have
    // written: parsed or refused, sizes and text within the limits, numbers plain.
    "thumbnail-png": { bytes in ThumbnailPNGHarness.run(Data(bytes)) },
    // A local photo's EXIF, which any camera or program may have written: the embedded
    // thumbnail found is a JPEG inside the EXIF segment, turned one of the 8 ways.
    "embedded-thumbnail": { bytes in
      // A JPEG's SOI first, so the fuzzer spends its time inside the segments.
      let data = Data([0xFF, 0xD8]) + Data(bytes)
      if let thumbnail = EmbeddedThumbnail(in: data) {
        precondition(thumbnail.jpeg.starts(with: [0xFF, 0xD8]) && thumbnail.jpeg.count <= 65_535)
        precondition((1...8).contains(thumbnail.orientation))
      }
    },
    // A thumbnailer entry's Exec word and a file's name, both from outside (a package's
    // entry, a hostile folder): a value put in is never read again as codes.
    "thumbnailer-exec": { bytes in ThumbnailerExecHarness.run(Array(bytes)) },
    // A video frame's PPM header from the decoder's pipe (a hostile file steers ffmpeg; a
    // broken decoder writes anything): a header is within the frame asked for and its bytes.
    "ppm-frame-header": { bytes in
      let largest = PixelSize(width: 1920, height: 1080)
      let input = Array(bytes)
      if case .header(let header) = PPMFrameHeader.parse(input[...], largest: largest) {
        precondition((1...largest.width).contains(header.width))
        precondition((1...largest.height).contains(header.height))
        precondition(header.length <= min(input.count, PPMFrameHeader.longest))
      }
    },
  ]
}

/// Fills a fuzzed `Exec` word with a fuzzed path (bytes before and after the first NUL) and
/// checks that the path went in whole, once per `%i`, whatever codes it spells.
enum ThumbnailerExecHarness {
  /// Scalars no fuzzed word holds (they are removed from it): each stands for one value.
  static let pathMark: Unicode.Scalar = "\u{E000}"
  static let outputMark: Unicode.Scalar = "\u{E001}"

  static func run(_ bytes: [UInt8]) {
    let split = bytes.firstIndex(of: 0) ?? bytes.count
    let word = String(
      String.UnicodeScalarView(
        String(decoding: bytes[..<split], as: UTF8.self).unicodeScalars.filter {
          $0 != pathMark && $0 != outputMark
        }))
    let path = FileSystemName.string(bytes[min(split + 1, bytes.count)...])
    let output = "/tmp/o%i%o%%.png"
    let filled = ThumbnailerExecCodes.fill(word, with: ["i": path, "o": output, "s": "256"])
    // The same word filled with marks, each mark then replaced by its value, scalar by
    // scalar: equal only when the values were put in as they are and never scanned.
    let marked = ThumbnailerExecCodes.fill(
      word, with: ["i": String(pathMark), "o": String(outputMark), "s": "256"])
    var expanded = String.UnicodeScalarView()
    for scalar in marked.unicodeScalars {
      switch scalar {
      case pathMark: expanded.append(contentsOf: path.unicodeScalars)
      case outputMark: expanded.append(contentsOf: output.unicodeScalars)
      default: expanded.append(scalar)
      }
    }
    precondition(String(expanded) == filled, "a value was read again as codes")
    // Filled with nothing, a word only loses scalars: its codes' two each, or one of `%%`.
    let emptied = ThumbnailerExecCodes.fill(word, with: ["i": "", "o": "", "s": ""])
    precondition(emptied.unicodeScalars.count <= word.unicodeScalars.count)
    // A word without a code is itself; a word that is one code is its value.
    if !word.unicodeScalars.contains("%") { precondition(filled == word) }
    precondition(ThumbnailerExecCodes.fill("%i", with: ["i": path]) == path)
    // Bytes of the path that are not UTF-8 go in as they are.
    precondition(
      FileSystemName.bytes(of: ThumbnailerExecCodes.fill("%i", with: ["i": path]))
        == Array(bytes[min(split + 1, bytes.count)...]))
  }
}

/// Parses fuzzed bytes as a thumbnail and checks what the reader promises.
enum ThumbnailPNGHarness {
  static func run(_ data: Data) {
    guard let chunks = try? PNGTextChunks.parse(data) else { return }
    precondition((1...ThumbnailLimits.maxPNGSide).contains(chunks.width))
    precondition((1...ThumbnailLimits.maxPNGSide).contains(chunks.height))
    precondition(chunks.text.count <= ThumbnailLimits.maxTextChunks)
    for (key, value) in chunks.text {
      precondition((1...ThumbnailLimits.maxKeywordBytes).contains(key.unicodeScalars.count))
      precondition(value.unicodeScalars.count <= ThumbnailLimits.maxTextBytes)
      if let number = ThumbnailText.number(value) { precondition(number >= 0) }
      precondition(ThumbnailText.oneLine(value).unicodeScalars.count <= 200)
    }
    if let size = ThumbnailText.statedOriginalSize(chunks) {
      precondition(size.width >= 1 && size.width <= ImageLimits.maxImageSide)
      precondition(size.height >= 1 && size.height <= ImageLimits.maxImageSide)
    }
    precondition((try? PNGTextChunks.parse(data)) == chunks)
  }
}

/// Builds responses from fuzzed header text and checks the freshness bounds.
enum HTTPMetadataHarness {
  static let now = Date(timeIntervalSince1970: 1_700_000_000)

  static func run(_ bytes: UnsafeRawBufferPointer) {
    let text = String(decoding: bytes, as: UTF8.self)
    var headers: [String: String] = [:]
    for line in text.split(whereSeparator: \.isNewline) {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let name = line[..<colon].trimmingCharacters(in: .whitespaces)
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      headers[name] = value
      if let seconds = DeltaSeconds.parse(value) {
        precondition((0...ImageLimits.maxDeltaSeconds).contains(seconds))
      }
    }
    let response = DataResponse(statusCode: 200, headers: headers)
    for lifetime in [0, 100, TimeInterval.infinity, -TimeInterval.infinity, .nan] {
      guard let metadata = HTTPCacheMetadata.from(response, at: now, defaultLifetime: lifetime)
      else { continue }
      check(metadata)
      let refreshed = metadata.revalidated(
        by: response, at: now.addingTimeInterval(60), defaultLifetime: lifetime)
      if let refreshed { check(refreshed) }
    }
  }

  private static func check(_ metadata: HTTPCacheMetadata) {
    let lifetime = metadata.freshUntil.timeIntervalSince(metadata.storedAt)
    precondition(lifetime >= 0 && lifetime <= ImageLimits.maxFreshnessLifetime)
    precondition(!metadata.isFresh(at: metadata.storedAt + ImageLimits.maxFreshnessLifetime))
    let limit = ImageLimits.maxHeaderValueBytes
    for value in [metadata.etag, metadata.lastModified, metadata.contentType] {
      precondition((value?.utf8.count ?? 0) <= limit)
    }
  }
}
