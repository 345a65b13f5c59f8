import Foundation
import TesseraPhotoFormats
import TesseraTestSupport
import Testing

@testable import TesseraGallery

/// The info panel (`i`): camera settings written as a photographer reads them, and in tmux the
/// panel opening over the grid, following the selection, opening over a photo, and closing.
@Suite(.timeLimit(.minutes(2))) struct InfoPanelTests {
  @Test func settingsReadAsOnACamera() {
    var facts = ShootingFacts()
    facts.focalLength = 35
    facts.focalLength35 = 52
    facts.aperture = 2.8
    facts.exposure = .init(1, 250)
    facts.iso = 400
    facts.exposureBias = 1.0 / 3
    #expect(
      InfoPanel.settings(facts) == [
        "35 mm (52 mm in 35 mm)", "f/2.8", "1/250 s", "ISO 400", "+0.3 EV",
      ])
    facts.aperture = 8
    facts.exposureBias = -0.67
    facts.exposure = .init(10, 20)
    #expect(InfoPanel.settings(facts).dropFirst() == ["f/8", "1/2 s", "ISO 400", "−0.7 EV"])
    #expect(InfoPanel.shutter(.init(2, 1)) == "2 s")
    #expect(InfoPanel.shutter(.init(15, 10)) == "1.5 s")
    #expect(InfoPanel.shutter(.init(1, 8000)) == "1/8000 s")
    facts.exposureBias = 0.01
    #expect(InfoPanel.settings(facts).last == "0 EV")
  }

  @Test func theCameraIsNamedOnce() {
    var facts = ShootingFacts()
    facts.make = "Canon"
    facts.model = "Canon EOS R5"
    #expect(InfoPanel.camera(facts) == "Canon EOS R5")
    facts.make = "NIKON CORPORATION"
    facts.model = "NIKON Z 6"
    #expect(InfoPanel.camera(facts) == "NIKON Z 6")
    facts.make = "FUJIFILM"
    facts.model = "X-T4"
    #expect(InfoPanel.camera(facts) == "FUJIFILM X-T4")
    facts.latitude = -33.8688
    facts.longitude = 151.2093
    facts.altitude = 58.4
    #expect(InfoPanel.position(facts) == "33.86880° S, 151.20930° E · 58 m")
  }

  @Test func iShowsEachPhotosSettingsAndFollowsTheSelection() throws {
    let root = TemporaryFolder.make(prefix: "tessera-info")
    defer { try? FileManager.default.removeItem(at: root) }
    for (index, name) in ["a.jpg", "b.jpg"].enumerated() {
      try LocalFolderEndToEndTests.write(
        try LocalFolderEndToEndTests.jpeg(UInt8(60 * index)), to: name, in: root,
        modified: "2024-05-0\(index + 1)T10:00:00Z")
    }
    try ExifTool.run(
      [
        "-q", "-P", "-overwrite_original", "-Make=Canon", "-Model=Canon EOS R5", "-FNumber=2.8",
        "-ExposureTime=1/250", "-ISO=400", "-LensModel=RF24-70mm F2.8 L IS USM",
        "-GPSLatitude=48.85837", "-GPSLatitudeRef=N", "-GPSLongitude=2.294481",
        "-GPSLongitudeRef=E", root.appendingPathComponent("a.jpg").path,
      ])
    try ExifTool.run(
      [
        "-q", "-P", "-overwrite_original", "-Make=FUJIFILM", "-Model=X-T4", "-FNumber=8",
        "-ExposureTime=1/60", "-ISO=3200", "-EXIF:Flash=Fired",
        root.appendingPathComponent("b.jpg").path,
      ])
    try Data(XMPNamespaces.packet(attributes: #"xmp:Rating="4""#))
      .write(to: root.appendingPathComponent("b.jpg.xmp"))
    let tmux = try ActingOnPhotosEndToEndTests.gallery("--sort name", in: root)
    try tmux.waitFor("the photos") {
      PathsInAndOutEndToEndTests.ready(2)($0) && Tmux.plain($0).contains("★★★★ b.jpg")
    }
    try tmux.send("i")
    try tmux.waitFor("a.jpg's settings") { capture in
      let plain = Tmux.plain(capture)
      return plain.contains("Camera    Canon EOS R5") && plain.contains("f/2.8 · 1/250 s · ISO 400")
        && plain.contains("Lens      RF24-70mm F2.8 L IS USM")
        && plain.contains("Position  48.85837° N, 2.29448° E")
    }
    // The panel follows the selection.
    try tmux.send("Right")
    let second = try tmux.waitFor("b.jpg's settings") { capture in
      let plain = Tmux.plain(capture)
      return plain.contains("Camera    FUJIFILM X-T4") && plain.contains("f/8 · 1/60 s · ISO 3200")
    }
    let plain = Tmux.plain(second)
    #expect(plain.contains("Flash     fired"), "\(plain)")
    #expect(plain.contains("Culling   ★★★★☆ · from b.jpg.xmp"), "\(plain)")
    // The gallery was started on "." : paths are as it names them.
    #expect(plain.contains("Sidecar   ./b.jpg.xmp"), "\(plain)")
    #expect(!plain.contains("Canon"), "a.jpg's settings are still shown:\n\(plain)")
    // Esc closes the panel, not the grid's filter or anything under it.
    try tmux.send("Escape")
    try tmux.waitFor("the panel closed") { !Tmux.plain($0).contains("Camera    ") }
    // Over a photo, and closed with i.
    try tmux.send("Enter")
    try tmux.waitFor("b's detail") { Tmux.plain($0).contains("Esc back") }
    try tmux.send("i")
    try tmux.waitFor("the panel over the photo") {
      Tmux.plain($0).contains("f/8 · 1/60 s · ISO 3200") && Tmux.plain($0).contains("Esc back")
    }
    try tmux.send("i")
    try tmux.waitFor("the panel closed over the photo") {
      !Tmux.plain($0).contains("ISO 3200") && Tmux.plain($0).contains("Esc back")
    }
    try tmux.send("q")
    try PathsInAndOutEndToEndTests.exited(tmux, in: root)
  }
}
