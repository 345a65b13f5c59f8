import TesseraUtilities

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system calls the trash makes, each answering with the facts it needs or `errno`, and
/// the path arithmetic it does on absolute, already resolved paths (no `..`, no symbolic link
/// in a folder), where it is plain string work.
///
/// - Complexity: each call is one or two system calls, O(path length).
enum TrashFileSystem {
  /// What `lstat` (or `stat`) said of a path.
  struct Status {
    var device: UInt64
    var mode: UInt32
    var owner: UInt32

    var isFolder: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFDIR) }
    var isSymbolicLink: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFLNK) }
    /// `S_ISVTX`: in a folder, only an entry's owner may remove or rename it.
    var isSticky: Bool { mode & 0o1000 != 0 }
    /// Its group or everyone may write to it (`S_IWGRP`, `S_IWOTH`).
    var isWritableByOthers: Bool { mode & 0o022 != 0 }
  }

  /// The path's own status (a symbolic link is described, not followed), or `errno`.
  static func linkStatus(_ path: String) -> Result<Status, Errno> {
    var info = stat()
    guard FileSystemName.withCString(path, { lstat($0, &info) }) == 0 else {
      return .failure(Errno(errno))
    }
    return .success(Status(info))
  }

  /// The status of what the path leads to, symbolic links followed, or `errno`.
  static func status(_ path: String) -> Result<Status, Errno> {
    var info = stat()
    guard FileSystemName.withCString(path, { stat($0, &info) }) == 0 else {
      return .failure(Errno(errno))
    }
    return .success(Status(info))
  }

  /// `errno`, with the system's words for it.
  struct Errno: Error, Equatable {
    var code: Int32

    init(_ code: Int32) { self.code = code }

    var text: String { String(cString: strerror(code)) }
  }

  /// `realpath`: the absolute path of an existing folder, symbolic links resolved.
  static func resolved(_ path: String) -> Result<String, Errno> {
    guard let pointer = FileSystemName.withCString(path, { realpath($0, nil) }) else {
      return .failure(Errno(errno))
    }
    defer { free(pointer) }
    let bytes = UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))
    return .success(FileSystemName.string(bytes))
  }

  /// Removes the file `path` (`unlink`), whatever the outcome: an info file given up.
  static func remove(_ path: String) {
    _ = FileSystemName.withCString(path) { unlink($0) }
  }

  /// Makes the folder `path` with mode `0700` (less what the umask takes, as `mkdir` does);
  /// a folder already there is fine.
  static func makeFolder(_ path: String) -> Errno? {
    FileSystemName.withCString(path, { mkdir($0, S_IRWXU) }) == 0 || errno == EEXIST
      ? nil : Errno(errno)
  }

  /// Renames `source` to `destination` unless something exists at `destination`: `EEXIST`
  /// then, and nothing moved. Linux's `renameat2(RENAME_NOREPLACE)` makes the check and the
  /// move one step; where it is missing (an old C library, a file system without it) the
  /// check is an `lstat` just before `rename`, which a process racing in between could beat.
  /// Never copies: across file systems the answer is `EXDEV`.
  static func renameNoReplace(_ source: String, _ destination: String) -> Errno? {
    if let renameat2 = renameAt2 {
      let moved = FileSystemName.withCString(source) { from in
        FileSystemName.withCString(destination) { to in
          renameat2(atCurrentFolder, from, atCurrentFolder, to, 1)
        }
      }
      if moved == 0 { return nil }
      let code = errno
      // EINVAL: this file system does not support the flag; ENOSYS: nor this kernel.
      guard code == EINVAL || code == ENOSYS else { return Errno(code) }
    }
    var info = stat()
    if FileSystemName.withCString(destination, { lstat($0, &info) }) == 0 {
      return Errno(EEXIST)
    }
    let moved = FileSystemName.withCString(source) { from in
      FileSystemName.withCString(destination) { to in rename(from, to) }
    }
    return moved == 0 ? nil : Errno(errno)
  }

  /// glibc's `renameat2` (2.28 and later), looked up at run time: Swift's Glibc module does
  /// not declare it (it is a GNU extension), and the package has no C target for this one call.
  private typealias RenameAt2 =
    @convention(c) (
      Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32
    ) -> Int32

  private static let renameAt2: RenameAt2? = {
    #if os(Linux)
      guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "renameat2") else { return nil }
      return unsafeBitCast(symbol, to: RenameAt2.self)
    #else
      return nil
    #endif
  }()

  /// `AT_FDCWD`: relative paths from the current folder (only absolute ones are passed).
  private static let atCurrentFolder: Int32 = -100

  /// Writes all of `text` to `descriptor`, retrying interrupted and short writes.
  static func writeAll(_ text: String, to descriptor: Int32) -> Errno? {
    var bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeMutableBytes { raw in
        write(descriptor, raw.baseAddress! + written, raw.count - written)
      }
      if count < 0 {
        if errno == EINTR { continue }
        return Errno(errno)
      }
      written += count
    }
    return nil
  }

  /// The folder part of an absolute path: `/a/b` → `/a`, `/a` → `/`.
  static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// The last component of a path without trailing slashes.
  static func name(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
  }

  /// `folder` and `name` joined by exactly one slash.
  static func join(_ folder: String, _ name: String) -> String {
    folder.hasSuffix("/") ? folder + name : folder + "/" + name
  }
}

extension TrashFileSystem.Status {
  fileprivate init(_ info: stat) {
    self.init(device: UInt64(info.st_dev), mode: UInt32(info.st_mode), owner: UInt32(info.st_uid))
  }
}
