import Foundation
import TesseraPhotoFormats
import TesseraUtilities

/// The photos `tessera bench folder` measures: 4000×3000 JPEGs with a photo's entropy —
/// smooth colour fields (Gaussian noise, upscaled 8× bicubic) under a fine grain (Gaussian
/// noise, σ 2), at quality 88: 3–4 MB each, like a phone's. Made with libvips' `vips` command
/// once, from a few base pictures varied per photo, and kept between runs. Each carries the
/// EXIF a camera writes: the date taken (a minute apart, in file order) and, unless
/// `exifThumbnails` is false (as an editor exports them), a 160×120 thumbnail in IFD1.
struct FolderBenchTree {
  let folder: URL
  let count: Int
  var exifThumbnails = true

  /// `$XDG_CACHE_HOME/tessera/bench-folder/photos-N-v2` (or under `~/.cache`), `-bare` at the
  /// end for photos without EXIF thumbnails.
  static func defaultFolder(_ count: Int, exifThumbnails: Bool = true) -> URL {
    CacheHome.url.appendingPathComponent(
      "tessera/bench-folder/photos-\(count)-v2" + (exifThumbnails ? "" : "-bare"))
  }

  private static let bases = 6
  /// Distinct photos at most; a larger tree is made of hard links to them (a walk and its
  /// memory see 100,000 files, the disk holds 200).
  static let distinctPhotos = 200

  /// The tree's files, made first when missing. O(count) `vips` runs the first time, at most
  /// ``distinctPhotos``; the rest are hard links, a thousand to a folder.
  func ensure() throws -> [URL] {
    guard count > Self.distinctPhotos else { return try ensureDistinct() }
    let originals = try FolderBenchTree(
      folder: Self.defaultFolder(Self.distinctPhotos, exifThumbnails: exifThumbnails),
      count: Self.distinctPhotos, exifThumbnails: exifThumbnails
    ).ensureDistinct()
    let files = (0..<count).map { index in
      folder.appendingPathComponent(String(format: "d%03d/photo-%06d.jpg", index / 1000, index))
    }
    for (index, file) in files.enumerated() where !FileManager.default.fileExists(atPath: file.path)
    {
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      guard link(originals[index % originals.count].path, file.path) == 0 else {
        throw FolderBenchProcess.Failure(
          description: "cannot link \(file.path): \(String(cString: strerror(errno)))")
      }
    }
    return files
  }

  private func ensureDistinct() throws -> [URL] {
    let files = (0..<count).map {
      folder.appendingPathComponent(String(format: "photo-%05d.jpg", $0))
    }
    let missing = files.filter { !FileManager.default.fileExists(atPath: $0.path) }
    guard !missing.isEmpty else { return files }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let work = folder.appendingPathComponent(".bases")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: work) }
    FileHandle.standardError.write(
      Data("tessera bench folder: generating \(missing.count) photos in \(folder.path)…\n".utf8))
    let bases = try (0..<Self.bases).map { try makeBase($0, in: work) }
    let failures = Locked(0)
    DispatchQueue.concurrentPerform(iterations: missing.count) { index in
      let file = missing[index]
      let number = Int(file.deletingPathExtension().lastPathComponent.dropFirst(6)) ?? index
      // Each photo its own tint, so no two files are alike.
      let gains = [0, 1, 2].map {
        String(format: "%.3f", 0.8 + Double((number * 7 + $0 * 13) % 40) / 100)
      }
      let temporary = file.deletingLastPathComponent().appendingPathComponent(
        ".tmp-\(file.lastPathComponent)")
      let thumbnail = work.appendingPathComponent("thumb-\(number).jpg")
      do {
        try FolderBenchProcess.run(
          [
            "vips", "linear", bases[number % bases.count], temporary.path + "[Q=88,strip]",
            gains.joined(separator: " "), "0 0 0", "--uchar",
          ])
        if exifThumbnails {
          try FolderBenchProcess.run(
            ["vips", "thumbnail", temporary.path, thumbnail.path + "[Q=75,strip]", "160"])
        }
        let taken = Self.taken(number)
        let exif = ExifWriter(
          model: "Tessera bench", orientation: 1,
          dateTaken: String(
            format: "%04d:%02d:%02d %02d:%02d:00", taken.year ?? 0, taken.month ?? 0,
            taken.day ?? 0, taken.hour ?? 0, taken.minute ?? 0),
          thumbnail: exifThumbnails ? [UInt8](try Data(contentsOf: thumbnail)) : nil)
        let photo = exif.splicing(into: [UInt8](try Data(contentsOf: temporary)))
        try Data(photo).write(to: temporary)
        try FileManager.default.moveItem(at: temporary, to: file)
      } catch {
        failures.withLock { $0 += 1 }
      }
    }
    let failed = failures.withLock { $0 }
    guard failed == 0 else {
      throw FolderBenchProcess.Failure(
        description: "\(failed) photos could not be generated (is libvips-tools installed?)")
    }
    return files
  }

  /// When photo `number` was taken, on the wall clock: a minute after the one before, from
  /// 2024-05-01 00:00. The mixed tree dates its RAWs and videos, which carry no EXIF date the
  /// walk reads, by the same clock through their modification times.
  static func taken(_ number: Int) -> DateComponents {
    DateComponents(
      year: 2024, month: 5, day: 1 + number / 1440 % 28, hour: number / 60 % 24,
      minute: number % 60, second: 0)
  }

  /// One base picture (a .v file, libvips' own format): colour fields and grain.
  private func makeBase(_ seed: Int, in work: URL) throws -> String {
    func path(_ name: String) -> String { work.appendingPathComponent("\(seed)-\(name).v").path }
    for band in 0..<3 {
      try FolderBenchProcess.run(
        [
          "vips", "gaussnoise", path("b\(band)"), "500", "375", "--mean", "128", "--sigma", "70",
          "--seed", String(seed * 3 + band + 1),
        ])
    }
    try FolderBenchProcess.run(
      ["vips", "bandjoin", "\(path("b0")) \(path("b1")) \(path("b2"))", path("rgb")])
    try FolderBenchProcess.run([
      "vips", "resize", path("rgb"), path("big"), "8", "--kernel", "cubic",
    ])
    try FolderBenchProcess.run(
      [
        "vips", "gaussnoise", path("grain"), "4000", "3000", "--mean", "0", "--sigma", "2",
        "--seed", String(seed + 100),
      ])
    try FolderBenchProcess.run(["vips", "add", path("big"), path("grain"), path("sum")])
    try FolderBenchProcess.run(["vips", "cast", path("sum"), path("base"), "uchar"])
    return path("base")
  }
}
