import Foundation

/// Where `swift build` put the `tessera` executable: beside the test bundle.
enum GalleryBinary {
  static var path: String {
    let bundleFolder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let beside = bundleFolder.appendingPathComponent("tessera").path
    if FileManager.default.isExecutableFile(atPath: beside) { return beside }
    // `swift test` may run the bundle from inside `.xctest/…`; walk up to the build folder.
    var folder = bundleFolder
    for _ in 0..<4 {
      folder = folder.deletingLastPathComponent()
      let candidate = folder.appendingPathComponent("tessera").path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return beside
  }
}
