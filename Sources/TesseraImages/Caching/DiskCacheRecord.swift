import Foundation
import TesseraUtilities

/// One verified entry read back from the disk cache.
public struct DiskCacheEntry: Sendable {
  /// The key it was stored under (the image's URL, for the pipeline).
  public let key: String
  /// The stored bytes, verified against their length and checksum.
  public let data: Data
  /// What HTTP said about caching them.
  public let metadata: HTTPCacheMetadata

  /// An entry of `data` under `key` with `metadata`: what a `DataCaching` store hands back.
  public init(key: String, data: Data, metadata: HTTPCacheMetadata) {
    self.key = key
    self.data = data
    self.metadata = metadata
  }
}

/// The bytes of one disk-cache entry: `TSRDISK1`, a little-endian UInt32 header length, a JSON
/// header (the key, the body's length and checksum, the HTTP metadata), the body.
///
/// Reading treats the file as outside input: another process, a crash or a person may have
/// written it. The declared header length is checked against `ImageLimits.maxDiskHeaderBytes`
/// and the file's size before it is used, the key, length and checksum are verified, and the
/// metadata's dates are only trusted within `HTTPCacheMetadata.isFresh(at:)`'s bounds.
enum DiskCacheRecord {
  static let magic = Data("TSRDISK1".utf8)

  private struct Header: Codable {
    var key: String
    var byteCount: Int
    var checksum: UInt64
    var metadata: HTTPCacheMetadata
  }

  /// The file for an entry, or nil when its metadata cannot be encoded (a non-finite date).
  /// - Complexity: O(n) in the body's length.
  static func encode(_ data: Data, metadata: HTTPCacheMetadata, for key: String) -> Data? {
    let header = Header(
      key: key, byteCount: data.count, checksum: data.withUnsafeBytes(StableHash.checksum),
      metadata: metadata)
    guard let headerBytes = try? JSONEncoder().encode(header),
      headerBytes.count <= ImageLimits.maxDiskHeaderBytes
    else { return nil }
    var file = magic
    var length = UInt32(headerBytes.count).littleEndian
    withUnsafeBytes(of: &length) { file.append(contentsOf: $0) }
    file.append(headerBytes)
    file.append(data)
    return file
  }

  /// Parses and verifies a file: magic, header length, header, body length and checksum.
  /// Nil for anything else, never a trap, whatever the bytes.
  /// - Complexity: O(n) in the file's length.
  static func decode(_ file: Data) -> DiskCacheEntry? {
    let prefix = magic.count + 4
    guard file.count >= prefix, file.prefix(magic.count) == magic else { return nil }
    var length: UInt32 = 0
    withUnsafeMutableBytes(of: &length) { raw in
      raw.copyBytes(from: file[file.startIndex + magic.count..<file.startIndex + prefix])
    }
    let headerLength = Int(UInt32(littleEndian: length))
    guard headerLength <= ImageLimits.maxDiskHeaderBytes, headerLength <= file.count - prefix
    else { return nil }
    let headerEnd = file.startIndex + prefix + headerLength
    guard
      let header = try? JSONDecoder().decode(
        Header.self, from: file[file.startIndex + prefix..<headerEnd])
    else { return nil }
    let body = file.subdata(in: headerEnd..<file.endIndex)
    guard body.count == header.byteCount,
      body.withUnsafeBytes(StableHash.checksum) == header.checksum
    else {
      return nil
    }
    return DiskCacheEntry(key: header.key, data: body, metadata: header.metadata)
  }
}

/// The folder's total size in bytes, kept in the lock file by every process that writes to
/// the folder (under the lock), so each sees the others' writes without listing the folder.
/// A folder scan rewrites it exactly; a ledger that does not parse just means "scan".
enum DiskCacheLedger {
  /// The text stored for `total`.
  static func text(_ total: Int) -> Data { Data("\(max(0, total))\n".utf8) }

  /// The total a ledger's bytes state: 1 to 18 ASCII digits and a newline; nil otherwise.
  /// - Complexity: O(n), n ≤ 19.
  static func parse(_ bytes: Data) -> Int? {
    guard let newline = bytes.firstIndex(of: 0x0A), newline == bytes.index(before: bytes.endIndex)
    else { return nil }
    let digits = bytes[bytes.startIndex..<newline]
    guard (1...18).contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) })
    else { return nil }
    // At most 18 digits: below 10^18, far from Int.max.
    return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
  }
}
