import CVipsShim
import Foundation
import Testing

/// libvips' module folder is steered through VIPSHOME, set before main while the process has
/// one thread (setenv on a worker thread raced every other thread's getenv), and kept out of
/// the environment of the programs Tessera starts.
@Suite struct VipsHomeTests {
  @Test func itIsSetBeforeLibvipsStartsAndStaysSet() throws {
    _ = tessera_vips_init()
    let home = try #require(getenv("VIPSHOME").map { String(cString: $0) })
    #expect(home.hasPrefix("/nonexistent/tessera"))
  }

  @Test func programsTesseraStartsDoNotSeeIt() throws {
    let environment = try #require(tessera_child_environment())
    defer { tessera_child_environment_free(environment) }
    var entries: [String] = []
    var index = 0
    while let entry = environment[index] {
      entries.append(String(cString: entry))
      index += 1
    }
    #expect(!entries.contains { $0.hasPrefix("VIPSHOME=/nonexistent/tessera") })
    #expect(entries.contains { $0.hasPrefix("PATH=") })
    #expect(entries.count == ProcessInfo.processInfo.environment.count - 1)
  }
}
