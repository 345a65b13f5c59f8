import Foundation
import TesseraTestSupport
import Testing

/// Acting on photos and finding them, as a person does it in tmux: `d` and `u` with the
/// files on disk looked at afterwards, the key-handler with what it was given, `/`, `t`, the
/// detail view's zoom and the slideshow, each read from the captured screen.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ActingOnPhotosEndToEndTests {
  /// Runs the gallery on `root` (a…e, one month each, September to May) with `arguments`
  /// and `environment`, exiting with a status file as `PathsInAndOutEndToEndTests` does.
  static func gallery(
    _ arguments: String, in root: URL, environment: [String: String] = [:]
  ) throws -> Tmux {
    let exports = environment.map { "\($0.key)=\(Tmux.quote($0.value))" }.joined(separator: " ")
    return try PathsInAndOutEndToEndTests.run(
      "\(exports) \"$0\" . --graphics blocks --no-disk-cache \(arguments)", in: root
    ).0
  }

  static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

  @Test func dMovesTheMarkedPhotosToTheTrashAndUPutsThemBack() throws {
    let root = try PathsInAndOutEndToEndTests.folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let data = root.appendingPathComponent("data").path
    let tmux = try Self.gallery("--sort name", in: root, environment: ["XDG_DATA_HOME": data])
    try tmux.waitFor("the five photos", PathsInAndOutEndToEndTests.ready(5))
    try tmux.send("m", "l", "m", "d")
    let after = try tmux.waitFor("two photos trashed") {
      Tmux.plain($0).contains("moved 2 photos to the Trash")
    }
    #expect(Tmux.plain(after).contains("photos 1–3 of 3"))
    #expect(!Tmux.plain(after).contains("a.jpg") && !Tmux.plain(after).contains("b.jpg"))
    // On disk as the freedesktop.org Trash keeps them: the file, and its .trashinfo.
    for name in ["a.jpg", "b.jpg"] {
      #expect(!Self.exists(root.appendingPathComponent(name).path))
      #expect(Self.exists("\(data)/Trash/files/\(name)"))
      let info = try String(contentsOfFile: "\(data)/Trash/info/\(name).trashinfo", encoding: .utf8)
      let lines = info.split(separator: "\n").map(String.init)
      #expect(lines.first == "[Trash Info]")
      let path = lines.first { $0.hasPrefix("Path=") }.map { String($0.dropFirst(5)) }
      #expect(path?.removingPercentEncoding == root.appendingPathComponent(name).path)
      let date = lines.first { $0.hasPrefix("DeletionDate=") } ?? ""
      #expect(date.wholeMatch(of: /DeletionDate=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/) != nil, "\(date)")
    }
    try tmux.send("u")
    let restored = try tmux.waitFor("both back") {
      Tmux.plain($0).contains("put back 2 photos") && Tmux.plain($0).contains("of 5")
    }
    #expect(Tmux.plain(restored).contains("a.jpg"))
    for name in ["a.jpg", "b.jpg"] {
      #expect(Self.exists(root.appendingPathComponent(name).path))
      #expect(!Self.exists("\(data)/Trash/files/\(name)"))
      #expect(!Self.exists("\(data)/Trash/info/\(name).trashinfo"))
    }
    try tmux.send("q")
    try PathsInAndOutEndToEndTests.exited(tmux, in: root)
  }

  @Test func theKeyHandlerRunsWithTheMarkedPathsAndTheGalleryComesBack() throws {
    let root = try PathsInAndOutEndToEndTests.folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let config = root.appendingPathComponent("config")
    let handler = config.appendingPathComponent("tessera/key-handler")
    try FileManager.default.createDirectory(
      at: handler.deletingLastPathComponent(), withIntermediateDirectories: true)
    let record = root.appendingPathComponent("handled").path
    try ExecutableScript.write(
      "#!/bin/sh\n{ echo \"key=$1\"; cat; } > '\(record)'\necho handler ran\n", to: handler)
    let tmux = try Self.gallery(
      "--sort name", in: root, environment: ["XDG_CONFIG_HOME": config.path])
    try tmux.waitFor("the five photos", PathsInAndOutEndToEndTests.ready(5))
    try tmux.send("m", "l", "l", "m", "C-x")
    try tmux.waitFor("the prefix said") { Tmux.plain($0).contains("Ctrl-x: now a key") }
    try tmux.send("r")
    let back = try tmux.waitFor("the gallery back after the handler") {
      Tmux.plain($0).contains("key-handler r: done") && PathsInAndOutEndToEndTests.ready(5)($0)
    }
    // The handler's own output was on the normal screen, not over the gallery.
    #expect(!Tmux.plain(back).contains("handler ran"))
    #expect(try String(contentsOfFile: record, encoding: .utf8) == "key=r\n./a.jpg\n./c.jpg\n")
    try tmux.send("q")
    try PathsInAndOutEndToEndTests.exited(tmux, in: root)
  }

  /// The handler is a program like any other the person runs: libvips in it loads its HEIF
  /// module, which it would not with the VIPSHOME the gallery sets for itself before main.
  @Test func aKeyHandlerConvertsTheMarkedHeicWithVips() throws {
    let root = TemporaryFolder.make(prefix: "tessera-handler-heic")
    defer { try? FileManager.default.removeItem(at: root) }
    let heic = TestImages.gradient(width: 96, height: 64, as: ".heic[Q=90]")
    #expect(!heic.isEmpty, "libvips could not write the test's HEIC: \(TestImages.lastError())")
    try heic.write(to: root.appendingPathComponent("phone.heic"))
    let config = root.appendingPathComponent("config")
    let handler = config.appendingPathComponent("tessera/key-handler")
    try FileManager.default.createDirectory(
      at: handler.deletingLastPathComponent(), withIntermediateDirectories: true)
    let errors = root.appendingPathComponent("vips.err").path
    try ExecutableScript.write(
      "#!/bin/sh\nwhile IFS= read -r photo; do vips copy \"$photo\" \"$photo.jpg\" "
        + "2>> '\(errors)'; done\n", to: handler)
    let tmux = try Self.gallery("", in: root, environment: ["XDG_CONFIG_HOME": config.path])
    try tmux.waitFor("the one photo", PathsInAndOutEndToEndTests.ready(1))
    try tmux.send("m", "C-x")
    try tmux.waitFor("the prefix said") { Tmux.plain($0).contains("Ctrl-x: now a key") }
    try tmux.send("c")
    let back = try tmux.waitFor("the handler to end") {
      Tmux.plain($0).contains("key-handler c:")
    }
    let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
    #expect(Tmux.plain(back).contains("key-handler c: done"), "vips said: \(said)")
    let jpeg = (try? Data(contentsOf: root.appendingPathComponent("phone.heic.jpg"))) ?? Data()
    #expect(
      jpeg.starts(with: [0xFF, 0xD8, 0xFF]), "\(jpeg.count) bytes written; vips said: \(said)")
    #expect(TestImages.header(jpeg)?.width == 96, "vips said: \(said)")
    try tmux.send("q")
    try PathsInAndOutEndToEndTests.exited(tmux, in: root)
  }

  @Test func slashFiltersTTheMonthsAndZoomInThePhoto() throws {
    let root = try PathsInAndOutEndToEndTests.folder()
    defer { try? FileManager.default.removeItem(at: root) }
    // One month a photo: a section each, two of them on the screen at a time.
    let walked = { (screen: String) in
      Tmux.plain(screen).contains("of 5 │") && !Tmux.plain(screen).contains("walking")
    }
    let tmux = try Self.gallery("", in: root)
    try tmux.waitFor("the five photos", walked)
    try tmux.send("/", "c")
    try tmux.waitFor("one match") {
      Tmux.plain($0).contains("/c▏ 1 match") && Tmux.plain($0).contains("photos 1–1 of 1")
    }
    try tmux.send("Escape")
    try tmux.waitFor("all five again", walked)
    // The month index: one photo a month, newest first; the third is July's.
    try tmux.send("t")
    let index = try tmux.waitFor("the month index") { Tmux.plain($0).contains("Months") }
    for month in ["Sep 2024 · 1", "Aug 2024 · 1", "Jul 2024 · 1", "Jun 2024 · 1", "May 2024 · 1"] {
      #expect(Tmux.plain(index).contains(month), "\(month) missing")
    }
    try tmux.send("j", "j", "Enter")
    try tmux.waitFor("July at the top") {
      let plain = Tmux.plain($0)
      return !plain.contains("Months")
        && plain.split(separator: "\n").first?.contains("Jul 2024 ·") == true
    }
    // The selected photo (c.jpg, July's) opened, zoomed, and fitted again.
    try tmux.send("Enter", "+")
    try tmux.waitFor("zoomed") {
      Tmux.plain($0).contains("c.jpg") && Tmux.plain($0).contains("×1.5 · h j k l pan")
    }
    try tmux.send("f")
    try tmux.waitFor("fitted") {
      !Tmux.plain($0).contains("×1.5") && Tmux.plain($0).contains("s slideshow")
    }
    try tmux.send("q")
    try PathsInAndOutEndToEndTests.exited(tmux, in: root)
  }

  @Test func theSlideshowStartsFromTheCommandLineAndMovesOn() throws {
    let root = try PathsInAndOutEndToEndTests.folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let tmux = try Self.gallery("--sort name --slideshow 1", in: root)
    try tmux.waitFor("the first photo in the slideshow") {
      Tmux.plain($0).contains("s stop the slideshow") && Tmux.plain($0).contains("a.jpg")
    }
    // A second later, by the gallery's own clock, the next.
    try tmux.waitFor("the second photo", timeout: .seconds(20)) {
      Tmux.plain($0).contains("s stop the slideshow") && Tmux.plain($0).contains("b.jpg")
    }
    try tmux.send("s")
    try tmux.waitFor("stopped") { Tmux.plain($0).contains("slideshow stopped") }
    try tmux.send("q")
    try PathsInAndOutEndToEndTests.exited(tmux, in: root)
  }
}

/// A photographer's folder: a RAW is listed and shown by its embedded preview, and its
/// detail view says what is shown.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct RawFilesEndToEndTests {
  @Test func aRawFileIsShownByItsPreviewAndSaysSo() throws {
    let root = TemporaryFolder.make(prefix: "tessera-raw-folder")
    defer { try? FileManager.default.removeItem(at: root) }
    try Data(RawFixtures.cr2(orientation: 6)).write(to: root.appendingPathComponent("a.CR2"))
    try LocalFolderEndToEndTests.write(
      try LocalFolderEndToEndTests.jpeg(80), to: "b.jpg", in: root,
      modified: "2024-05-01T10:00:00Z")
    let tmux = try ActingOnPhotosEndToEndTests.gallery("--sort name", in: root)
    try tmux.waitFor("both shown") {
      PathsInAndOutEndToEndTests.ready(2)($0) && Tmux.plain($0).contains("✓ 2 loaded")
    }
    try tmux.send("Enter")
    // The preview is 48×32, turned upright by the RAW's orientation 6.
    try tmux.waitFor("the RAW's detail") {
      Tmux.plain($0).contains("RAW · embedded preview 32×48")
    }
    try tmux.send("q")
    try PathsInAndOutEndToEndTests.exited(tmux, in: root)
  }

  @Test func aRawAndJpegPairIsOnePhotoAndGoesToTheTrashTogether() throws {
    let root = TemporaryFolder.make(prefix: "tessera-raw-pair")
    defer { try? FileManager.default.removeItem(at: root) }
    try Data(RawFixtures.cr2(orientation: 1)).write(to: root.appendingPathComponent("IMG_7.CR2"))
    try LocalFolderEndToEndTests.write(
      try LocalFolderEndToEndTests.jpeg(120), to: "IMG_7.JPG", in: root,
      modified: "2024-05-01T10:00:00Z")
    try LocalFolderEndToEndTests.write(
      try LocalFolderEndToEndTests.jpeg(60), to: "z.jpg", in: root,
      modified: "2024-05-02T10:00:00Z")
    let data = root.appendingPathComponent("data").path
    let tmux = try ActingOnPhotosEndToEndTests.gallery(
      "--sort name", in: root, environment: ["XDG_DATA_HOME": data])
    // Two photos, not three; the pair's tile says RAW+.
    let shown = try tmux.waitFor("the pair and z.jpg") {
      PathsInAndOutEndToEndTests.ready(2)($0) && Tmux.plain($0).contains("RAW+ IMG_7.JPG")
    }
    #expect(!Tmux.plain(shown).contains("IMG_7.CR2"))
    // The pair sorts first by name: it is selected.
    try tmux.send("d")
    try tmux.waitFor("the pair trashed") { Tmux.plain($0).contains("moved 1 photo to the Trash") }
    for name in ["IMG_7.JPG", "IMG_7.CR2"] {
      #expect(!ActingOnPhotosEndToEndTests.exists(root.appendingPathComponent(name).path))
      #expect(ActingOnPhotosEndToEndTests.exists("\(data)/Trash/files/\(name)"))
    }
    try tmux.send("u")
    try tmux.waitFor("the pair back") { Tmux.plain($0).contains("put back 1 photo") }
    for name in ["IMG_7.JPG", "IMG_7.CR2"] {
      #expect(ActingOnPhotosEndToEndTests.exists(root.appendingPathComponent(name).path))
    }
    try tmux.send("q")
    try PathsInAndOutEndToEndTests.exited(tmux, in: root)
  }

  @Test func aVideoIsListedByItsPosterUnlessLeftOut() throws {
    let root = TemporaryFolder.make(prefix: "tessera-video-folder")
    defer { try? FileManager.default.removeItem(at: root) }
    try TestMedia.video(root.appendingPathComponent("clip.mp4").path)
    try LocalFolderEndToEndTests.write(
      try LocalFolderEndToEndTests.jpeg(60), to: "a.jpg", in: root,
      modified: "2024-05-02T10:00:00Z")
    let tmux = try ActingOnPhotosEndToEndTests.gallery("--sort name", in: root)
    try tmux.waitFor("the photo and the video's poster") {
      PathsInAndOutEndToEndTests.ready(2)($0) && Tmux.plain($0).contains("▶ 0:02 clip.mp4")
        && Tmux.plain($0).contains("✓ 2 loaded")
    }
    try tmux.send("l", "Enter")
    try tmux.waitFor("the video's detail") {
      Tmux.plain($0).contains("video · 0:02 · Space pauses")
    }
    try tmux.send("q")
    try PathsInAndOutEndToEndTests.exited(tmux, in: root)

    let without = try ActingOnPhotosEndToEndTests.gallery("--sort name --no-videos", in: root)
    try without.waitFor("the photo alone", PathsInAndOutEndToEndTests.ready(1))
    try without.send("q")
    try PathsInAndOutEndToEndTests.exited(without, in: root)
  }
}

/// An animated GIF plays in the detail view, read from the screen as a person sees it.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct AnimationEndToEndTests {
  /// The rows of the detail view's picture: those between the title bar and its text.
  private static func pictureRows(_ capture: String) -> [Substring] {
    let rows = capture.split(separator: "\n", omittingEmptySubsequences: false)
    return Array(rows.dropFirst().prefix(max(0, rows.count - 12)))
  }

  @Test func anAnimatedGifPlaysWhenOpened() throws {
    let root = TemporaryFolder.make(prefix: "tessera-animation-folder")
    defer { try? FileManager.default.removeItem(at: root) }
    // 3 s of a moving test card, 10 frames a second, for good.
    try TestMedia.animation(
      root.appendingPathComponent("moving.gif").path, frames: 30, size: "160x120")
    let tmux = try ActingOnPhotosEndToEndTests.gallery("", in: root)
    try tmux.waitFor("the GIF's tile, with its badge") {
      PathsInAndOutEndToEndTests.ready(1)($0) && Tmux.plain($0).contains("↻ moving.gif")
    }
    try tmux.send("Enter")
    try tmux.waitFor("the GIF's detail") { Tmux.plain($0).contains("o open") }
    // The picture changes by itself, no key pressed: three different pictures are seen (the
    // still one and two frames; a still picture gives one, or two as it is replaced).
    var seen = Set<[Substring]>()
    try tmux.waitFor("three different frames") { capture in
      let rows = Self.pictureRows(capture)
      if rows.contains(where: { $0.contains("▀") }) { seen.insert(rows) }
      return seen.count >= 3
    }
    try tmux.send("q")
    try PathsInAndOutEndToEndTests.exited(tmux, in: root)
  }

  /// A JPEG + MOV pair is one item with LIVE; `p` plays the MOV, and the still photo is back
  /// when it ends. A motion photo (an MP4 appended to its JPEG, announced in its XMP) plays
  /// its own bytes the same way.
  @Test(arguments: ["pair", "appended"])
  func aLivePhotosMotionPlaysOnP(kind: String) throws {
    let root = TemporaryFolder.make(prefix: "tessera-live-playing")
    defer { try? FileManager.default.removeItem(at: root) }
    let jpeg = try LocalFolderEndToEndTests.jpeg(120)
    let name = kind == "pair" ? "IMG_1.JPG" : "PXL_1.MP.jpg"
    if kind == "pair" {
      try LocalFolderEndToEndTests.write(
        jpeg, to: name, in: root, modified: "2024-05-02T10:00:00Z")
      try TestMedia.video(root.appendingPathComponent("IMG_1.MOV").path, seconds: 2)
    } else {
      let clip = root.appendingPathComponent("motion.mp4")
      try TestMedia.video(clip.path, seconds: 2)
      let video = try [UInt8](Data(contentsOf: clip))
      try FileManager.default.removeItem(at: clip)
      let photo = MotionPhotoFixtures.withXMP(
        jpeg, MotionPhotoFixtures.microVideo(offset: String(video.count)))
      try LocalFolderEndToEndTests.write(
        photo + video, to: name, in: root, modified: "2024-05-02T10:00:00Z")
    }
    let tmux = try ActingOnPhotosEndToEndTests.gallery("", in: root)
    try tmux.waitFor("one LIVE item") {
      PathsInAndOutEndToEndTests.ready(1)($0) && Tmux.plain($0).contains("LIVE")
        && Tmux.plain($0).contains("✓ 1 loaded")
    }
    try tmux.send("Enter")
    let still = try tmux.waitFor("the still photo, and the key") {
      Tmux.plain($0).contains("p plays its motion")
        && Self.pictureRows($0).contains {
          $0.contains("▀")
        }
    }
    try tmux.send("p")
    var seen: Set<[Substring]> = [Self.pictureRows(still)]
    try tmux.waitFor("two more pictures while the motion plays") { capture in
      guard Tmux.plain(capture).contains("p stops") else { return false }
      let rows = Self.pictureRows(capture)
      if rows.contains(where: { $0.contains("▀") }) { seen.insert(rows) }
      return seen.count >= 3
    }
    try tmux.waitFor("the still photo back after 2 s of motion") { capture in
      Tmux.plain(capture).contains("p plays its motion")
        && ProcessTree.decoders(below: tmux.panePID).isEmpty
    }
    try tmux.send("q")
    try PathsInAndOutEndToEndTests.exited(tmux, in: root)
  }

  @Test func aVideoPlaysWhenOpenedAndEscLeavesNoDecoder() throws {
    let root = TemporaryFolder.make(prefix: "tessera-video-playing")
    defer { try? FileManager.default.removeItem(at: root) }
    try TestMedia.video(root.appendingPathComponent("clip.mp4").path, seconds: 4)
    let tmux = try ActingOnPhotosEndToEndTests.gallery("", in: root)
    try tmux.waitFor("the video's tile") {
      PathsInAndOutEndToEndTests.ready(1)($0) && Tmux.plain($0).contains("▶ 0:04 clip.mp4")
    }
    try tmux.send("Enter")
    // The picture changes by itself while ffmpeg decodes: three different pictures (the
    // poster and two frames), and a decoder seen below the gallery meanwhile.
    var seen = Set<[Substring]>()
    var decoding = false
    try tmux.waitFor("three different frames, decoded by ffmpeg") { capture in
      if !ProcessTree.decoders(below: tmux.panePID).isEmpty { decoding = true }
      guard Tmux.plain(capture).contains("Space pause/play") else { return false }
      let rows = Self.pictureRows(capture)
      if rows.contains(where: { $0.contains("▀") }) { seen.insert(rows) }
      return seen.count >= 3 && decoding
    }
    #expect(Tmux.plain(try tmux.capture()).contains("/ 0:04"))
    try tmux.send("Escape")
    try tmux.waitFor("no decoder left after Esc") { capture in
      !Tmux.plain(capture).contains("Space pause/play")
        && ProcessTree.decoders(below: tmux.panePID).isEmpty
    }
    try tmux.send("q")
    try PathsInAndOutEndToEndTests.exited(tmux, in: root)
  }
}
