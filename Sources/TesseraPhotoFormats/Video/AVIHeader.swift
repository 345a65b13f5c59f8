import TesseraUtilities

/// An AVI file's duration, from its main header: RIFF `AVI ` → `LIST hdrl` → `avih`
/// (dwMicroSecPerFrame × dwTotalFrames). An OpenDML file (over 1 GiB, in several RIFF parts)
/// counts only its first part's frames there; its `LIST odml` → `dmlh` holds them all.
///
/// The `hdrl` list comes first in the file and is a few kilobytes, so the first bytes read
/// hold it. No creation time is read: AVI's `IDIT` and `ICRD` are free text in the writer's
/// own format and time zone, not an instant.
///
/// - Complexity: O(chunks of `hdrl` and `odml`), at most `MetadataChunks.maxChunks` each.
enum AVIHeader {
  private static let mainHeader: FourCC = "avih"
  private static let list: FourCC = "LIST"
  private static let openDMLHeader: FourCC = "dmlh"

  /// The facts in an AVI file's first `bytes`.
  static func facts(_ bytes: [UInt8]) -> VideoFacts {
    var cursor = ByteCursor(bytes, range: 0..<bytes.count)
    guard cursor.fourCC() == "RIFF", cursor.skip(4), cursor.fourCC() == "AVI ",
      let headers = children(of: bytes, list: 12, named: "hdrl")
    else { return VideoFacts() }
    let little = RawEndian.little
    var microseconds: Int?
    var frames: Int?
    for chunk in headers.chunks {
      let payload = Array(headers.bytes[chunk.payload])
      if chunk.type == mainHeader {
        microseconds = little.u32(payload, 0)
        frames = max(frames ?? 0, little.u32(payload, 16) ?? 0)
      } else if let odml = children(
        of: headers.bytes, list: chunk.payload.lowerBound - 8, named: "odml"),
        let dmlh = odml.chunks.first(where: { $0.type == openDMLHeader })
      {
        frames = max(frames ?? 0, little.u32(Array(odml.bytes[dmlh.payload]), 0) ?? 0)
      }
    }
    guard let microseconds, let frames else { return VideoFacts() }
    // Two 32-bit numbers: their product fits 64 bits, but say so rather than rely on it.
    let (total, overflow) = UInt64(microseconds).multipliedReportingOverflow(by: UInt64(frames))
    guard !overflow else { return VideoFacts() }
    return VideoFacts(duration: VideoFacts.duration(seconds: Double(total) / 1_000_000))
  }

  /// The chunks of the `LIST` whose header starts at `start` in `bytes` when its list type
  /// is `name`, as far as `bytes` hold it: its payload as bytes of their own, so the walk
  /// stays inside the list.
  private static func children(
    of bytes: [UInt8], list start: Int, named name: FourCC
  ) -> (bytes: [UInt8], chunks: [MetadataChunk])? {
    var cursor = ByteCursor(bytes, range: start..<bytes.count)
    guard cursor.fourCC() == list, let length = RawEndian.little.u32(bytes, start + 4),
      cursor.skip(4), cursor.fourCC() == name, length >= 4
    else { return nil }
    let end = start + 8 + min(length, bytes.count - start - 8)
    let payload = Array(bytes[(start + 12)..<end])
    let walk = MetadataChunks.walk(
      payload, from: 0, format: .riff, wanted: [mainHeader, list, openDMLHeader], maxWanted: 0)
    return (payload, walk.chunks)
  }
}
