import TesseraUtilities

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The JPEG a camera embedded in a RAW file, which a photo browser shows in the RAW's place:
/// decoding the sensor data is a RAW developer's work, the camera's own rendering is already
/// there (1620×1080 in a CR3, full size in most NEFs, CR2s and RAFs).
package struct RawPreview: Equatable, Sendable {
  /// Where the JPEG's first byte (FF D8) lies in the file.
  package var offset: Int
  /// Its length in bytes; `offset + length` is at most the file's size.
  package var length: Int
  /// The size in the JPEG's frame header (SOF), the pixels it decodes to.
  package var width: Int?
  package var height: Int?
  /// The RAW's EXIF orientation (1…8): IFD0's 0x0112, CR3's CMT1, the RAF JPEG's own EXIF,
  /// CRW's rotation; 1 when absent. The preview is stored unrotated, as the sensor saw it.
  package var orientation: Int
  /// "TIFF" (CR2, NEF, ARW, DNG, ORF, RW2, PEF …), "MRW", "CR3", "RAF" or "CRW".
  package var container: String

  package init(
    offset: Int, length: Int, width: Int?, height: Int?, orientation: Int, container: String
  ) {
    self.offset = offset
    self.length = length
    self.width = width
    self.height = height
    self.orientation = orientation
    self.container = container
  }
}

/// Why no preview was found; `format` names the file as the locator recognised it ("CR2",
/// "RW2", "ORF", "DNG", "TIFF", "MRW", "CR3", "RAF", "CRW").
package enum RawPreviewError: Error, Equatable, Sendable, CustomStringConvertible {
  /// No RAW container the locator knows starts the file.
  case notRaw
  /// The structure, or the only previews it names, reach past the file's end: a cut-off copy.
  case endsEarly(format: String)
  /// The structure was read; none of the JPEGs it names is a preview inside the file.
  case noPreview(format: String)
  /// The search used its byte budget before it found any preview.
  case searchLimit(format: String)
  /// The file could not be opened or read, or is no regular file (the reason).
  case unreadable(String)

  package var description: String {
    switch self {
    case .notRaw: "not a RAW file"
    case .endsEarly(let format): "the \(format) file ends early"
    case .noPreview(let format): "no JPEG preview in this \(format)"
    case .searchLimit(let format): "the \(format)'s structure is too large to search"
    case .unreadable(let reason): "the file cannot be read: \(reason)"
    }
  }
}

/// Finds the largest JPEG preview in a RAW file: recognises the container by its first bytes
/// (TIFF-based, CR3, RAF, CRW, MRW), lists the JPEG ranges its structure names, keeps those
/// that lie wholly inside the file and are baseline or progressive JPEGs (``RawJPEGProbe``),
/// and picks the one of most pixels (then the longest).
///
/// The bytes are hostile: every number from the file is checked against the file's size
/// before any arithmetic, every walk is bounded (IFDs, boxes, heap records, nesting), and all
/// reading together stays within ``RawByteReader/maxBytes`` (4 MiB) of a 20–80 MB file. No
/// input traps; what does not add up is skipped, or ends the search with a
/// ``RawPreviewError``.
///
/// - Complexity: O(structure read), at most 4 MiB in at most 4,096 reads; O(1) in the file's
///   size.
package enum RawPreviewLocator {
  /// Lowercase extensions of the RAW files handled (the format table's RAW row).
  package static let extensions = Set(PhotoFormat.raw.extensions)
  /// Candidates probed for a frame header, all containers together.
  static let maxProbes = 32

  /// The largest preview in a file of `fileSize` bytes, read only through `read(offset, count)`
  /// (the bytes at `offset`, `count` of them, fewer only where the file ends; nil when they
  /// cannot be read). `read` is only asked for ranges inside `0..<fileSize`.
  ///
  /// - Complexity: see the type; `read` is called at most 4,096 times for at most 4 MiB.
  package static func largestPreview(
    fileSize: Int, read: (Int, Int) -> [UInt8]?
  ) throws(RawPreviewError) -> RawPreview {
    guard fileSize <= RawByteReader.maxFileSize else {
      throw .unreadable("larger than any RAW file (\(fileSize) bytes)")
    }
    let result = withoutActuallyEscaping(read) { read in
      search(reader: RawByteReader(fileSize: fileSize, read: read))
    }
    return try result.get()
  }

  /// The largest preview in the regular file at `path`: opened `O_RDONLY | O_NOFOLLOW |
  /// O_NONBLOCK | O_CLOEXEC` (a symbolic link is refused, a FIFO cannot hang), checked with
  /// `fstat` on the descriptor to be a regular file, read with `pread`, as `SafeFileRead` reads
  /// a path from a folder listing. Blocking I/O: call it off the cooperative pool.
  ///
  /// - Complexity: as ``largestPreview(fileSize:read:)``, plus one open and one fstat.
  package static func largestPreview(atPath path: String) throws(RawPreviewError) -> RawPreview {
    // Opened and checked as every file from a folder is (`SafeFileRead`); RAW files are
    // read in place, so any size the offsets can address is allowed.
    let opened = SafeFileRead.withRegularFile(path: path, maxFileSize: Int(Int64.max)) {
      descriptor, size, _, _ in
      .success(
        Result { () throws(RawPreviewError) in
          try largestPreview(fileSize: size) { offset, count in
            guard count > 0 else { return [] }
            var bytes = [UInt8](repeating: 0, count: count)
            var filled = 0
            while filled < count {
              let read = bytes.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress! + filled, count - filled, off_t(offset + filled))
              }
              if read < 0, errno == EINTR { continue }
              guard read > 0 else { break }  // an error, or the file shrank since fstat
              filled += read
            }
            return filled == count ? bytes : nil
          }
        })
    }
    switch opened {
    case .success(let search): return try search.get()
    case .failure(.symbolicLink): throw .unreadable("a symbolic link")
    case .failure(.notFound): throw .unreadable("no such file")
    case .failure(.notRegularFile): throw .unreadable("not a regular file")
    case .failure(.tooLarge): throw .unreadable("too large")
    case .failure(.unreadable(let reason)): throw .unreadable(reason)
    }
  }

  /// The container's candidates, then the probe and the choice.
  private static func search(reader: RawByteReader) -> Result<RawPreview, RawPreviewError> {
    let head: [UInt8]
    do throws(RawByteReader.Stop) {
      guard let bytes = try reader.bytes(at: 0, upTo: 32), bytes.count >= 8 else {
        return .failure(.notRaw)
      }
      head = bytes
    } catch {
      return .failure(stopped(error, format: "RAW"))
    }
    guard var format = self.format(of: head) else { return .failure(.notRaw) }
    var found: RawPreview?
    do throws(RawByteReader.Stop) {
      let (container, ranges, orientation, name) = try candidates(
        format: format, head: head, reader: reader)
      format = name
      for range in ranges.prefix(maxProbes) {
        guard
          let size = try RawJPEGProbe.frameSize(
            offset: range.offset, count: range.count, reader: reader)
        else { continue }
        let preview = RawPreview(
          offset: range.offset, length: range.count, width: size.width, height: size.height,
          orientation: orientation, container: container)
        if let best = found, !isLarger(preview, than: best) { continue }
        found = preview
      }
      if var found {
        if container == "RAF" {
          found.orientation = try RawRAF.orientation(
            ofJPEGAt: found.offset, count: found.length, reader: reader)
        }
        return .success(found)
      }
    } catch {
      return found.map { .success($0) } ?? .failure(stopped(error, format: format))
    }
    return .failure(reader.reachedPastEnd ? .endsEarly(format: format) : .noPreview(format: format))
  }

  private static func stopped(_ stop: RawByteReader.Stop, format: String) -> RawPreviewError {
    switch stop {
    case .budget: .searchLimit(format: format)
    case .unreadable: .unreadable("a read failed")
    case .shrank: .endsEarly(format: format)
    }
  }

  /// More pixels, or as many and more bytes.
  private static func isLarger(_ preview: RawPreview, than other: RawPreview) -> Bool {
    let area = (preview.width ?? 0) * (preview.height ?? 0)  // each < 2^16: no overflow
    let otherArea = (other.width ?? 0) * (other.height ?? 0)
    return area != otherArea ? area > otherArea : preview.length > other.length
  }

  /// The file's format by its first bytes: "CR3", "RAF", "CRW", "MRW", or a TIFF-based one
  /// ("CR2" with `CR` at byte 8, "RW2" for magic 0x55, "ORF" for `RO`/`RS`, else "TIFF").
  static func format(of head: [UInt8]) -> String? {
    if RawCR3.matches(head) { return "CR3" }
    if RawRAF.matches(head) { return "RAF" }
    if RawCIFF.header(head) != nil { return "CRW" }
    if RawMRW.matches(head) { return "MRW" }
    guard let header = RawTIFFWalk.Header(head) else { return nil }
    switch header.magic {
    case 0x55: return "RW2"
    case 0x4F52, 0x5352: return "ORF"
    default: return head.count >= 10 && head[8] == 0x43 && head[9] == 0x52 ? "CR2" : "TIFF"
    }
  }

  /// The container's name, the JPEG ranges its structure names, the orientation, and the
  /// file's format as the structure tells it (a TIFF's Make names a NEF or an ARW).
  private static func candidates(
    format: String, head: [UInt8], reader: RawByteReader
  ) throws(RawByteReader.Stop) -> (String, [(offset: Int, count: Int)], Int, String) {
    switch format {
    case "CR3":
      let found = try RawCR3.candidates(reader: reader)
      return ("CR3", found.ranges, found.orientation, format)
    case "RAF":
      return ("RAF", try RawRAF.candidate(reader: reader).map { [$0] } ?? [], 1, format)
    case "CRW":
      guard let (endian, start) = RawCIFF.header(head), start < reader.fileSize else {
        reader.reachedPastEnd = true
        return ("CRW", [], 1, format)
      }
      var ciff = RawCIFF(reader: reader, endian: endian)
      try ciff.walk(heap: start..<reader.fileSize)
      return ("CRW", ciff.candidates, ciff.orientation, format)
    case "MRW":
      guard let range = try RawMRW.tiffRange(reader: reader),
        let tiffHead = try reader.bytes(at: range.lowerBound, upTo: min(8, range.count)),
        let header = RawTIFFWalk.Header(tiffHead)
      else { return ("MRW", [], 1, format) }
      var walk = RawTIFFWalk(
        reader: reader, base: range.lowerBound, endian: header.endian, plainMakerNote: true)
      try walk.walk(firstIFD: header.firstIFD)
      return ("MRW", walk.candidates, walk.orientation, format)
    default:
      guard let header = RawTIFFWalk.Header(head) else { return ("TIFF", [], 1, format) }
      var walk = RawTIFFWalk(reader: reader, base: 0, endian: header.endian)
      try walk.walk(firstIFD: header.firstIFD)
      let name = walk.isDNG ? "DNG" : format == "TIFF" ? tiffFormat(make: walk.make) : format
      return ("TIFF", walk.candidates, walk.orientation, name)
    }
  }

  /// A TIFF-based RAW's usual extension by its maker, for messages ("no JPEG preview in this
  /// NEF"); "TIFF" for a maker not listed.
  private static func tiffFormat(make: String?) -> String {
    let make = make?.uppercased() ?? ""
    let names: [(String, String)] = [
      ("NIKON", "NEF"), ("SONY", "ARW"), ("PENTAX", "PEF"), ("RICOH", "PEF"),
      ("SAMSUNG", "SRW"), ("HASSELBLAD", "3FR"), ("PHASE ONE", "IIQ"), ("EPSON", "ERF"),
      ("CANON", "CR2"), ("LEAF", "MOS"), ("MAMIYA", "MEF"), ("KODAK", "DCR"),
      ("OLYMPUS", "ORF"), ("PANASONIC", "RW2"), ("LEICA", "RWL"),
    ]
    return names.first { make.contains($0.0) }?.1 ?? "TIFF"
  }
}
