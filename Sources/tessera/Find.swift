import ArgumentParser
import Foundation
import TesseraPhotoLibrary
import TesseraTerminal
import TesseraUtilities

/// `tessera find PATH… --filter EXPR`: the photos a filter selects, as paths on standard
/// output, drawing nothing: for scripts, and for a server with no terminal graphics. It walks
/// and reads as the gallery does (the same facts store, so a second run reads no header) and
/// takes the same filter grammar as `/` and `--filter` (`PhotoQuery`).
struct Find: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Print the paths of the photos and videos a filter selects, drawing nothing.",
    discussion: """
      Walks the folders (and takes the files) given, as the gallery does, and prints the path \
      of each photo or video the filter selects, one a line (NUL-separated with -0), by date \
      taken. The filter is terms separated by spaces, all of which must hold; ! before a term \
      negates it: rating>=3 (also > <= < =; unrated is 0, rejected -1), rejected, label:red \
      (yellow green blue purple none any), tag:wedding (a keyword or a level of a tag path), \
      camera:TEXT, date:2024, date:2024-05, date>=2024-05-01 (taken, else modified), \
      name:TEXT or a plain word (in the file name). Ratings, labels and tags are read from \
      the photos' XMP sidecars (a sidecar wins over the camera's rating). Example: \
      tessera find ~/shoot --filter 'rating>=4 !label:red' -0 | xargs -0 cp -t ~/picks. \
      Exit status 0 when a photo matched, 1 when none did; folders that can't be read are \
      named on standard error.
      """
  )

  @Argument(help: "Folders and image files.", completion: .file())
  var paths: [String]
  @Option(help: "What to select (see above); empty selects every photo.")
  var filter = ""
  @Flag(name: .customShort("0"), help: "End each path with NUL instead of a line break.")
  var nullSeparated = false
  @Flag(help: "Neither read nor write the facts kept from earlier walks.")
  var noDiskCache = false

  func validate() throws {
    do {
      _ = try PhotoQuery(filter)
    } catch {
      throw ValidationError(error.description)
    }
  }

  func run() async throws {
    let query = try PhotoQuery(filter)
    let store = noDiskCache ? nil : PhotoFactsStore()
    let progress = isatty(STDERR_FILENO) == 1 ? FindProgress() : nil
    var report: (@Sendable (Int, Int) -> Void)?
    if let progress { report = { progress.show($0, $1) } }
    let (found, problems) = await Self.find(paths, query: query, store: store, progress: report)
    progress?.clear()
    for problem in problems {
      FileHandle.standardError.write(
        Data("tessera find: \(TerminalText.questionMarked(problem))\n".utf8))
    }
    let separator: UInt8 = nullSeparated ? 0 : 0x0A
    FileHandle.standardOutput.write(
      Data(found.flatMap { FileSystemName.bytes(of: $0) + [separator] }))
    if found.isEmpty { throw ExitCode(1) }
  }

  /// The paths under `roots` that `query` selects, by date taken, and the walk's problems.
  @MainActor
  static func find(
    _ roots: [String], query: PhotoQuery, store: PhotoFactsStore?,
    progress: (@Sendable (_ photos: Int, _ headersRead: Int) -> Void)? = nil
  ) async -> (paths: [String], problems: [String]) {
    let library = PhotoLibrary(
      walker: FolderWalker(roots: roots, includeVideos: true), facts: store)
    let (changes, continuation) = AsyncStream<Void>.makeStream()
    library.onChange = { _ in
      progress?(library.count, library.progress.headersRead)
      continuation.yield()
    }
    await library.start()
    func done() -> Bool {
      library.progress.walkFinished && library.progress.headersRead >= library.count
    }
    if !done() {
      for await _ in changes where done() { break }
    }
    library.onChange = nil
    continuation.finish()
    await library.factsStored()
    let catalog = library.catalog
    let order = library.order
    let matching = await BlockingWork.run {
      order.lazy.map { catalog.photo(at: $0) }
        .filter { query.matches(PhotoQuery.Facts($0)) }.map(\.file.path)
    }
    return (matching, library.problems)
  }
}

/// What `tessera find` has done so far, on one line of standard error rewritten in place,
/// while standard error is a terminal: a person waiting on a large tree sees it move; a
/// script's pipe on standard output never sees it. At most ten updates a second.
final class FindProgress: Sendable {
  private let shown = Locked<ContinuousClock.Instant?>(nil)

  func show(_ photos: Int, _ headersRead: Int) {
    let now = ContinuousClock.now
    let due = shown.withLock { shown in
      if let last = shown, now - last < .milliseconds(100) { return false }
      shown = now
      return true
    }
    guard due else { return }
    let line =
      "tessera find: \(CountText.grouped(photos)) photos, \(CountText.grouped(headersRead)) read"
    FileHandle.standardError.write(Data(("\r\u{1B}[2K" + line).utf8))
  }

  func clear() {
    guard shown.withLock({ $0 != nil }) else { return }
    FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
  }
}
