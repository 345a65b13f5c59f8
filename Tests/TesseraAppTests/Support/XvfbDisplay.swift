import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A private X server for one test: `Xvfb -displayfd` picks a display number no other server
/// holds (other tests and other people's Xvfb run on the same machine) and tells it to us once
/// it accepts connections. Stopped in `deinit`, pass or fail.
final class XvfbDisplay {
  /// The screen's size in pixels.
  let width: Int
  let height: Int

  let number: Int
  private let server: BackgroundProcess
  let logFolder: URL

  var name: String { ":\(number)" }

  init(width: Int, height: Int, logFolder: URL) throws {
    self.width = width
    self.height = height
    self.logFolder = logFolder
    var readEnd: Int32 = -1
    server = try BackgroundProcess(
      [
        "Xvfb", "-displayfd", "3", "-screen", "0", "\(width)x\(height)x24",
        "-nolisten", "tcp", "-noreset",
      ], log: logFolder.appendingPathComponent("xvfb.log").path, report: &readEnd)
    defer { close(readEnd) }
    // Xvfb writes the number followed by a newline once it is ready; give it 30 s.
    var text = ""
    var poll = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
    let deadline = ContinuousClock.now + .seconds(30)
    while !text.hasSuffix("\n"), ContinuousClock.now < deadline {
      guard Glibc.poll(&poll, 1, 100) > 0 else { continue }
      var byte: UInt8 = 0
      guard read(readEnd, &byte, 1) == 1 else { break }
      text.append(Character(UnicodeScalar(byte)))
    }
    guard let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      throw Spawn.Failure(description: "Xvfb did not start (said \(text.debugDescription))")
    }
    self.number = number
  }

  deinit { server.stop() }

  /// Runs an X client (xdotool, import, xwininfo) against this display and returns its output.
  @discardableResult
  func run(_ arguments: [String]) throws -> String {
    let result = try Spawn.run(["env", "DISPLAY=\(name)"] + arguments)
    guard result.status == 0 else {
      throw Spawn.Failure(
        description: "\(arguments.joined(separator: " ")) failed: \(result.output)")
    }
    return result.output
  }
}
