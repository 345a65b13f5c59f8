import Foundation
import TesseraImageSynthesis
import TesseraImages
import TesseraPhotoFormats
import TesseraPhotoLibrary
import TesseraUtilities

/// Writes a ``MixedFolderPlan`` into a folder of this run's own (nothing of it is kept).
/// Pictures come from `FolderBenchTree`'s camera photos (kept between runs: a 12-MP photo
/// with a photo's entropy takes libvips a second to make): a JPEG shot is a hard link to one;
/// a RAW is `RawFixtures`' structure around that photo as the camera's preview (a CR2 holds
/// it full size in IFD0, a CR3 a 1620-px rendering in PRVW), with a stub for the sensor data;
/// a video is a 2-s 1280×720 H.264 clip ffmpeg encodes now. RAWs and videos carry no date
/// the walk reads, so their modification times say when they were taken.
struct MixedFolderTree {
  let plan: MixedFolderPlan
  let folder: URL
  /// One camera photo per shot, in shot order (`FolderBenchTree.ensure()`).
  let photos: [URL]

  /// The side a CR3's PRVW preview has across: Canon's.
  static let cr3PreviewWidth = 1620

  /// Fails at once, naming the package, when what the tree or the gallery's posters need is
  /// missing (the bench would otherwise fail on its first screen).
  static func requireTools() throws {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for (program, package) in [("ffmpeg", "ffmpeg"), ("vips", "libvips-tools")]
    where !path.split(separator: ":").contains(where: { access("\($0)/\(program)", X_OK) == 0 }) {
      throw FolderBenchProcess.Failure(description: "\(program) is not installed (\(package))")
    }
    for container in MixedFolderPlan.VideoContainer.allCases {
      guard let type = VideoFile.mimeType(ofPath: "clip." + container.rawValue),
        SystemThumbnailer.find(for: type) != nil
      else {
        throw FolderBenchProcess.Failure(
          description: "no thumbnailer makes posters of \(container.rawValue) videos "
            + "(ffmpegthumbnailer)")
      }
    }
  }

  /// Writes every shot's files and returns what the gallery shows, one file a shot, oldest
  /// first.
  func make() throws -> [URL] {
    guard photos.count >= plan.shots.count else {
      throw FolderBenchProcess.Failure(
        description: "\(photos.count) camera photos for \(plan.shots.count) shots")
    }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    FileHandle.standardError.write(
      Data(
        ("tessera bench folder --mixed: writing \(MixedFolderPlan.census(plan.shots)) "
          + "in \(folder.path)…\n").utf8))
    for shot in plan.shots {
      try make(shot)
    }
    return plan.shots.map { folder.appendingPathComponent($0.shown) }
  }

  private func make(_ shot: MixedFolderPlan.Shot) throws {
    let photo = photos[shot.index]
    let file = folder.appendingPathComponent(shot.files[0])
    switch shot.kind {
    case .jpeg:
      try place(photo, at: file)
    case .pair(let family):
      try place(photo, at: file)
      try Data(raw(family, from: photo)).write(to: folder.appendingPathComponent(shot.files[1]))
    case .raw(let family):
      try Data(raw(family, from: photo)).write(to: file)
      try date(file, as: shot.index)
    case .video:
      try video(file, index: shot.index)
      try date(file, as: shot.index)
    }
  }

  /// A hard link to the kept photo (its EXIF dates it), a copy where links cannot go.
  private func place(_ photo: URL, at file: URL) throws {
    do {
      try FileManager.default.linkItem(at: photo, to: file)
    } catch {
      try FileManager.default.copyItem(at: photo, to: file)
    }
  }

  private func raw(_ family: MixedFolderPlan.RawFamily, from photo: URL) throws -> [UInt8] {
    switch family {
    case .cr2:
      // A camera's preview carries no EXIF of its own: the RAW's IFDs hold it.
      return RawFixtures.cr2(
        orientation: 1, preview: Self.withoutExif([UInt8](try Data(contentsOf: photo))))
    case .cr3:
      let preview = folder.appendingPathComponent(".prvw-\(photo.lastPathComponent)")
      defer { try? FileManager.default.removeItem(at: preview) }
      try FolderBenchProcess.run([
        "vips", "thumbnail", photo.path, preview.path + "[Q=90,strip]",
        String(Self.cr3PreviewWidth),
      ])
      let bytes = [UInt8](try Data(contentsOf: preview))
      guard let size = ImageHeader.pixelSize(bytes) else {
        throw FolderBenchProcess.Failure(description: "libvips wrote no JPEG for a CR3 preview")
      }
      return RawFixtures.cr3(orientation: 1, prvw: bytes, prvwSize: size)
    }
  }

  /// `jpeg` without the EXIF segment `FolderBenchTree` put right after its SOI.
  static func withoutExif(_ jpeg: [UInt8]) -> [UInt8] {
    guard jpeg.count > 6, jpeg[2] == 0xFF, jpeg[3] == 0xE1 else { return jpeg }
    let end = 4 + (Int(jpeg[4]) << 8 | Int(jpeg[5]))
    guard end <= jpeg.count else { return jpeg }
    return Array(jpeg[0..<2] + jpeg[end...])
  }

  /// A 2-s clip of ffmpeg's test pattern, its hue turned per shot so no two posters match.
  private func video(_ file: URL, index: Int) throws {
    try FolderBenchProcess.run([
      "ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
      "testsrc2=duration=2:size=1280x720:rate=24", "-vf", "hue=h=\(index * 37 % 360)",
      "-c:v", "libx264", "-pix_fmt", "yuv420p", file.path,
    ])
  }

  /// Sets `file`'s modification time to when shot `index` was taken, on this machine's clock.
  private func date(_ file: URL, as index: Int) throws {
    guard let taken = Calendar.current.date(from: FolderBenchTree.taken(index)) else {
      throw FolderBenchProcess.Failure(description: "no date for shot \(index)")
    }
    try FileManager.default.setAttributes([.modificationDate: taken], ofItemAtPath: file.path)
  }
}
