#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension UnsafeMutablePointer where Pointee == dirent {
  /// The entry's name, read in place up to its NUL. glibc's `readdir` packs entries by
  /// `d_reclen`, so the last one in its buffer may be shorter than `dirent`'s 256-byte name
  /// field: copying the field out (as `withUnsafeBytes(of: entry.pointee.d_name)` does) reads
  /// past the buffer, which AddressSanitizer reports. A name that is not UTF-8 keeps its bytes
  /// (`FileSystemName`). O(name length).
  package var entryName: String {
    let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 0
    let name = UnsafeRawPointer(self).advanced(by: offset).assumingMemoryBound(to: UInt8.self)
    return FileSystemName.string(UnsafeBufferPointer(start: name, count: strlen(name)))
  }
}
