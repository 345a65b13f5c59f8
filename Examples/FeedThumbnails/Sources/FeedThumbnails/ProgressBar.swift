import Foundation

/// A one-line progress bar on standard error, redrawn in place (`\r`), so standard output
/// keeps only the summary.
struct ProgressBar: Sendable {
  let total: Int
  let width = 30

  func draw(done: Int) {
    let filled = total <= 0 ? width : min(width, max(0, done) * width / total)
    let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
    FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(total) thumbnails".utf8))
  }

  func finish() {
    FileHandle.standardError.write(Data("\n".utf8))
  }
}
