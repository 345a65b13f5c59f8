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

/// The names in one folder, as the file system has them: a name that is not UTF-8 keeps its
/// bytes (`FileSystemName`), so it can be opened again; "." and ".." are left out. The folder
/// is opened without blocking (a FIFO in its place) and as a folder only.
///
/// - Complexity: O(entries); at most `limit` names are kept.
package enum FolderListing {
  /// The names in the folder at `path`, in the order the file system lists them, or the
  /// `errno` that opening it gave.
  package static func names(of path: String, limit: Int = .max) -> Result<[String], Errno> {
    let descriptor = FileSystemName.withCString(path) {
      open($0, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC)
    }
    guard descriptor >= 0, let directory = fdopendir(descriptor) else {
      let code = errno
      if descriptor >= 0 { close(descriptor) }
      return .failure(Errno(code: code))
    }
    defer { closedir(directory) }
    var names: [String] = []
    while names.count < limit, let entry = readdir(directory) {
      let name = entry.entryName
      if name != "." && name != ".." { names.append(name) }
    }
    return .success(names)
  }

  /// An `errno` from the file system, in words.
  package struct Errno: Error, Equatable {
    package var code: Int32

    package init(code: Int32) {
      self.code = code
    }

    /// "permission denied", or the C library's text for the code.
    package var reason: String {
      code == EACCES ? "permission denied" : String(cString: strerror(code))
    }
  }
}
