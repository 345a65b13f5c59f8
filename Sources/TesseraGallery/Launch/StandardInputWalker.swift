import Foundation
import TesseraPhotoLibrary
import TesseraUtilities

/// The files `tessera -i` shows, walked from standard input as it arrives: its lines (or
/// NUL-separated names), in order, those that are readable image or video files; the rest
/// are counted, never fatal. The first photos are shown while the program writing the names
/// (`find`) still runs: a batch goes out after every read that brought a file, the first
/// at once.
///
/// - Complexity: O(bytes read) plus one `stat` per name; memory O(one read and the line it
///   ends inside) besides the files found.
struct StandardInputWalker: FileWalking {
  /// Most bytes read from standard input: 64 MiB, some 500,000 paths; the rest is ignored.
  static let maximumBytes = 64 << 20

  let descriptor: Int32
  let nullSeparated: Bool
  /// Where the count of rejected names goes when the walk ends.
  let report: StandardInputReport

  func walk(_ deliver: (WalkBatch) -> Bool) {
    let separator: UInt8 = nullSeparated ? 0 : 0x0A
    var batch = WalkBatch()
    var found = 0
    var rejected = 0
    var total = 0
    var pending: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    func take(_ line: ArraySlice<UInt8>) {
      var name = line
      if !nullSeparated, name.last == 0x0D { name = name.dropLast() }  // CRLF lines
      guard !name.isEmpty else { return }
      guard found < FeedLimits.maxWalkFiles,
        let file = Self.file(FileSystemName.string(name))
      else {
        rejected += 1
        return
      }
      batch.files.append(file)
      found += 1
    }
    while total < Self.maximumBytes {
      let count = Foundation.read(descriptor, &buffer, min(buffer.count, Self.maximumBytes - total))
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      total += count
      pending += buffer[0..<count]
      guard let last = pending.lastIndex(of: separator) else { continue }
      for line in pending[..<last].split(separator: separator, omittingEmptySubsequences: true) {
        take(line)
      }
      pending.removeSubrange(...last)
      if !batch.files.isEmpty {
        guard deliver(batch) else { return report.finish(rejected: rejected) }
        batch.files.removeAll(keepingCapacity: true)
      }
    }
    take(pending[...])
    batch.finished = true
    _ = deliver(batch)
    report.finish(rejected: rejected)
  }

  /// The walked file at `path` when it is a regular file (after links) whose extension is an
  /// image's or a video's; nil otherwise.
  static func file(_ path: String) -> WalkedFile? {
    var info = stat()
    guard FileSystemName.withCString(path, { stat($0, &info) }) == 0,
      info.st_mode & S_IFMT == S_IFREG
    else { return nil }
    let name = path.split(separator: "/").last.map(String.init) ?? path
    guard FolderWalker.isImageName(name, videos: true) else { return nil }
    return FolderWalker.file(path, info)
  }
}

/// What `-i`'s walk tells the screen when it ends: how many names were not readable image
/// files. The screen may ask before or after the end; it hears it once either way.
final class StandardInputReport: Sendable {
  private struct State {
    var rejected: Int?
    var listener: (@Sendable (String?) -> Void)?
  }
  private let state = Locked(State())

  /// What the status bar says about `rejected` names; nil when there were none.
  static func notice(rejected: Int) -> String? {
    guard rejected > 0 else { return nil }
    return rejected == 1
      ? "1 line of standard input is not a readable image file"
      : "\(rejected) lines of standard input are not readable image files"
  }

  func finish(rejected: Int) {
    let listener = state.withLock { state in
      state.rejected = rejected
      return state.listener
    }
    listener?(Self.notice(rejected: rejected))
  }

  /// Calls `body` with the notice when the walk ends (at once when it has ended).
  func whenFinished(_ body: @escaping @Sendable (String?) -> Void) {
    let rejected = state.withLock { state in
      state.listener = body
      return state.rejected
    }
    if let rejected { body(Self.notice(rejected: rejected)) }
  }
}
