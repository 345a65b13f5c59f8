import Foundation
import TesseraPhotoFormats
import TesseraUtilities

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One image file a walk found, with what `stat` said (no byte of it read yet).
///
/// Kept for every photo of a walk, so it holds the path once and derives the rest: 32 bytes
/// and the path's own storage (`FolderWalker` allocates it at its exact length).
public struct WalkedFile: Sendable, Equatable {
  /// The path as the walk reached it (through the argument given, symlinked folders kept).
  public var path: String
  public var size: Int
  public var modified: Date
  /// The name of the camera RAW beside it with the same stem ("IMG_0001.CR2" beside
  /// "IMG_0001.JPG"): a RAW+JPEG pair is one photo, shown once by its JPEG.
  public var rawCompanion: String?
  /// The name of the video beside it with the same stem ("IMG_0001.MOV" beside
  /// "IMG_0001.HEIC"): a Live Photo is one photo, shown by its image (`MotionPairing`).
  public var motionCompanion: String?
  /// The XMP sidecar beside it that a culling tool wrote (`SidecarPairing`).
  public var sidecar: XMPSidecar?

  public init(
    path: String, size: Int, modified: Date, rawCompanion: String? = nil,
    motionCompanion: String? = nil, sidecar: XMPSidecar? = nil
  ) {
    self.path = path
    self.size = size
    self.modified = modified
    self.rawCompanion = rawCompanion
    self.motionCompanion = motionCompanion
    self.sidecar = sidecar
  }

  /// The last path component. O(name length); allocates for a name over 15 bytes, so
  /// comparisons use `nameSlice`.
  public var name: String { String(nameSlice) }

  /// The last path component, in the path's own storage. O(name length).
  var nameSlice: Substring {
    guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path[...] }
    return path[path.utf8.index(after: slash)...]
  }

  /// The folder the file is in, as the walk reached it ("." for a bare file name).
  /// O(path length).
  public var folder: String {
    guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
    return slash == path.utf8.startIndex ? "/" : String(path[..<slash])
  }
}

/// What a walk delivers as it goes: the images found since the last batch, problems met
/// (each said once), and how far it is.
public struct WalkBatch: Sendable, Equatable {
  public var files: [WalkedFile] = []
  /// Sentences: "“/p/private” can't be read (permission denied)".
  public var problems: [String] = []
  /// Folders read so far, in the whole walk.
  public var foldersWalked = 0
  /// True on the last batch.
  public var finished = false

  public init(
    files: [WalkedFile] = [], problems: [String] = [], foldersWalked: Int = 0,
    finished: Bool = false
  ) {
    self.files = files
    self.problems = problems
    self.foldersWalked = foldersWalked
    self.finished = finished
  }
}

/// Something that walks and hands over batches: the real file system, or a test's walker
/// that releases batches when the test says.
public protocol FileWalking: Sendable {
  /// Walks, calling `deliver` with each batch (the last one `finished`); stops early when
  /// `deliver` answers false. Blocking: runs on a thread of its own, never the cooperative pool.
  func walk(_ deliver: (WalkBatch) -> Bool)
}

/// Walks folders (and takes image files given directly), streaming what it finds in batches:
/// the first batch is small so the first screen comes at once, later ones larger.
///
/// - Hidden files and folders (a name starting with ".") are skipped unless `includeHidden`.
/// - A folder that cannot be read is reported once and the walk goes on.
/// - Symbolic links to folders are followed, but every folder is entered at most once, by its
///   (device, inode): a link loop ends where it began. Symbolic links to files are not listed
///   (local images are opened with `O_NOFOLLOW`).
/// - `maxDepth` 0 reads only the given folders, 1 their subfolders too, and so on.
///
/// - Complexity: O(entries) system calls (one `fstatat` per entry, two for a symlink), memory
///   O(folders) for the (device, inode) set and the stack of folders still to read.
public struct FolderWalker: FileWalking {
  public var roots: [String]
  public var maxDepth: Int
  public var includeHidden: Bool
  /// Videos (MP4, MOV, M4V, MKV, WebM, AVI) are listed too, shown by their posters.
  public var includeVideos: Bool
  /// Images in the first batch; later batches hold `batchSize`.
  public var firstBatchSize = 48
  public var batchSize = 2_048

  /// File extensions listed, lower-case: what Debian's libvips reads from a local folder,
  /// and camera RAW files (shown by their embedded JPEG preview); the format table's.
  public static let imageExtensions = PhotoFormat.extensions(of: [.still, .raw])

  public init(
    roots: [String], maxDepth: Int = FeedLimits.maxWalkDepth, includeHidden: Bool = false,
    includeVideos: Bool = false
  ) {
    self.roots = roots
    self.maxDepth = maxDepth.clamped(to: 0...FeedLimits.maxWalkDepth)
    self.includeHidden = includeHidden
    self.includeVideos = includeVideos
  }

  private struct FolderID: Hashable {
    var device: UInt64
    var inode: UInt64
  }

  public func walk(_ deliver: (WalkBatch) -> Bool) {
    var batch = WalkBatch()
    var found = 0
    var seen = Set<FolderID>()
    var stack: [(path: String, depth: Int)] = []
    var limit = firstBatchSize
    var foldersDelivered = 0
    // A batch goes out when it is full, has a problem to say, or 256 folders went by without
    // one (so the progress moves through folders that hold no image).
    func flush(force: Bool = false) -> Bool {
      guard
        force || batch.files.count >= limit || !batch.problems.isEmpty
          || batch.foldersWalked - foldersDelivered >= 256
      else { return true }
      foldersDelivered = batch.foldersWalked
      let keepGoing = deliver(batch)
      batch.files.removeAll(keepingCapacity: true)
      batch.problems.removeAll()
      limit = batchSize
      return keepGoing
    }
    // Files given as roots come first, in the order given (`tessera -i` shows them so);
    // folders go on the stack in reverse, so it reads them in the order given.
    var folders: [String] = []
    for root in roots {
      var info = stat()
      guard FileSystemName.withCString(root, { stat($0, &info) }) == 0 else {
        batch.problems.append(
          "“\(root)” can't be read (\(FolderListing.Errno(code: errno).reason))")
        continue
      }
      switch info.st_mode & S_IFMT {
      case S_IFDIR:
        if seen.insert(Self.folderID(info)).inserted { folders.append(root) }
      case S_IFREG:
        guard found < FeedLimits.maxWalkFiles else { continue }
        batch.files.append(Self.file(root, info))
        found += 1
        guard flush() else { return }
      default:
        batch.problems.append("“\(root)” is neither a folder nor a file")
      }
    }
    stack.append(contentsOf: folders.reversed().map { ($0, 0) })
    while let (folder, depth) = stack.popLast() {
      guard found < FeedLimits.maxWalkFiles else {
        batch.problems.append("stopped after \(FeedLimits.maxWalkFiles) images")
        break
      }
      let subfolders = read(folder, depth: depth, into: &batch, found: &found, seen: &seen)
      // Reversed: the first subfolder in the listing is read next.
      stack.append(contentsOf: subfolders.reversed().map { ($0, depth + 1) })
      batch.foldersWalked += 1
      guard flush() else { return }
    }
    batch.finished = true
    _ = flush(force: true)
  }

  /// Lists one folder: images into `batch`, subfolders (not seen before, within the depth)
  /// returned in listing order.
  private func read(
    _ folder: String, depth: Int, into batch: inout WalkBatch, found: inout Int,
    seen: inout Set<FolderID>
  ) -> [String] {
    let descriptor = FileSystemName.withCString(folder) {
      open($0, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC)
    }
    guard descriptor >= 0, let directory = fdopendir(descriptor) else {
      let code = errno
      batch.problems.append("“\(folder)” can't be read (\(FolderListing.Errno(code: code).reason))")
      return []
    }
    defer { closedir(directory) }
    var subfolders: [String] = []
    let prefix = folder.hasSuffix("/") ? folder : folder + "/"
    let firstOfFolder = batch.files.count
    var sidecars: [String: XMPSidecar] = [:]
    // Videos the walk does not list (`includeVideos` false) may still be a Live Photo's motion.
    var unlistedMotion: [String] = []
    defer {
      // Videos first: a listed MOV of a RAW+JPEG+MOV stem is no image for the RAW to pair with.
      found -= MotionPairing.pair(&batch.files, from: firstOfFolder, unlisted: unlistedMotion)
      found -= RAWPairing.pair(&batch.files, from: firstOfFolder)
      SidecarPairing.pair(&batch.files, from: firstOfFolder, sidecars: sidecars)
    }
    while let entry = readdir(directory) {
      let name = entry.entryName
      if name == "." || name == ".." || (!includeHidden && name.hasPrefix(".")) { continue }
      var info = stat()
      let symbolic = FileSystemName.withCString(name) {
        fstatat(descriptor, $0, &info, AT_SYMLINK_NOFOLLOW)
      }
      guard symbolic == 0 else { continue }
      var type = info.st_mode & S_IFMT
      if type == S_IFLNK {
        // Only a link to a folder is followed; what it points to is checked by inode.
        guard FileSystemName.withCString(name, { fstatat(descriptor, $0, &info, 0) }) == 0,
          info.st_mode & S_IFMT == S_IFDIR
        else {
          continue
        }
        type = S_IFDIR
      }
      if type == S_IFDIR {
        if depth < maxDepth, seen.insert(Self.folderID(info)).inserted {
          subfolders.append(prefix + name)
        }
      } else if type == S_IFREG, found < FeedLimits.maxWalkFiles,
        Self.isImageName(name, videos: includeVideos)
      {
        batch.files.append(Self.file(Self.path(prefix, name), info))
        found += 1
      } else if type == S_IFREG, SidecarPairing.isSidecarName(name),
        sidecars.count < FeedLimits.maxFolderEntries
      {
        let file = Self.file(name, info)
        sidecars[name] = XMPSidecar(name: name, size: file.size, modified: file.modified)
      } else if type == S_IFREG, !includeVideos, MotionPairing.isVideoName(name),
        unlistedMotion.count < FeedLimits.maxFolderEntries
      {
        unlistedMotion.append(name)
      }
    }
    return subfolders
  }

  private static func folderID(_ info: stat) -> FolderID {
    FolderID(
      device: UInt64(truncatingIfNeeded: info.st_dev),
      inode: UInt64(truncatingIfNeeded: info.st_ino))
  }

  /// Whether `name`'s extension (after the last dot, not a leading one) is an image's.
  /// O(name), on its UTF-8 bytes: a walk asks it of every entry.
  package static func isImageName(_ name: String, videos: Bool = false) -> Bool {
    let bytes = name.utf8
    guard let dot = bytes.lastIndex(of: 0x2E), dot != bytes.startIndex else { return false }
    let suffix = bytes[bytes.index(after: dot)...]
    guard (2...4).contains(suffix.count) else { return false }
    let lowered = String(
      decoding: suffix.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    return imageExtensions.contains(lowered) || (videos && VideoFile.extensions.contains(lowered))
  }

  /// `prefix + name` in storage of exactly their length: `+` sizes it for appending more,
  /// and a walk keeps every path it makes (~60 bytes each for 100,000 photos).
  private static func path(_ prefix: String, _ name: String) -> String {
    var path = String()
    path.reserveCapacity(prefix.utf8.count + name.utf8.count)
    path.append(prefix)
    path.append(name)
    return path
  }

  /// The walked file at `path` whose `stat` is `info`: its size and modification time.
  package static func file(_ path: String, _ info: stat) -> WalkedFile {
    #if canImport(Darwin)
      let time = info.st_mtimespec
    #else
      let time = info.st_mtim
    #endif
    return WalkedFile(
      path: path, size: Int(truncatingIfNeeded: info.st_size),
      modified: Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9))
  }
}
