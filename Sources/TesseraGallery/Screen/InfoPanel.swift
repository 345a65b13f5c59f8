import Foundation
import TesseraPhotoFormats
import TesseraTerminal
import TesseraUtilities

/// The info panel's text (`i`): what a photographer checks — camera, lens, focal length,
/// aperture, shutter, ISO, exposure compensation, flash, position, pixel and file size, date,
/// the rating and where it is kept — as label and value lines, and its box at the screen's
/// right, so the photo stays in view.
enum InfoPanel {
  /// The panel's lines for `item` with what its file said (`facts`), or while it is read.
  static func lines(for item: GalleryItem, reading: InfoPanelMode.Reading) -> [String] {
    guard let local = item.local else {
      return [item.title, item.subtitle, "a feed's item: its file is on the server"]
    }
    var lines = [(local.path as NSString).lastPathComponent]
    switch reading {
    case .reading:
      lines.append("reading the file…")
    case .read(nil):
      lines.append("the file records no camera settings")
    case .read(let facts?):
      if let camera = camera(facts) { lines.append("Camera    " + camera) }
      if let lens = facts.lens { lines.append("Lens      " + lens) }
      let exposure = settings(facts)
      if !exposure.isEmpty { lines.append("Exposure  " + exposure.joined(separator: " · ")) }
      if let fired = facts.flashFired {
        lines.append("Flash     " + (fired ? "fired" : "did not fire"))
      }
      if let place = position(facts) { lines.append("Position  " + place) }
    }
    let size = local.pixelSize.map { "\($0.width) × \($0.height) px · " } ?? ""
    lines.append("Size      " + size + ByteCount.rounded(local.fileSize))
    lines.append("Taken     " + (local.taken ?? "not recorded (modified \(local.modified))"))
    if let culling = local.cullingLine { lines.append("Culling   " + culling) }
    if let sidecar = local.sidecar {
      let folder = (local.path as NSString).deletingLastPathComponent
      lines.append("Sidecar   " + (folder as NSString).appendingPathComponent(sidecar))
    }
    if let raw = local.rawCompanion { lines.append("RAW       " + raw) }
    lines.append("File      " + local.path)
    return lines
  }

  /// "Canon EOS 5D Mark IV": the model, after the make unless the model already names it.
  static func camera(_ facts: ShootingFacts) -> String? {
    guard let model = facts.model else { return facts.make }
    guard let make = facts.make,
      !model.lowercased().hasPrefix(make.lowercased().split(separator: " ").first ?? "")
    else { return model }
    return make + " " + model
  }

  /// "35 mm (52 mm in 35 mm)", "f/2.8", "1/250 s", "ISO 400", "+0.3 EV", as recorded.
  static func settings(_ facts: ShootingFacts) -> [String] {
    var parts: [String] = []
    if let focal = facts.focalLength {
      let equivalent = facts.focalLength35.map { " (\($0) mm in 35 mm)" } ?? ""
      parts.append(number(focal) + " mm" + equivalent)
    }
    if let aperture = facts.aperture { parts.append("f/" + number(aperture)) }
    if let exposure = facts.exposure { parts.append(shutter(exposure)) }
    if let iso = facts.iso { parts.append("ISO \(iso)") }
    if let bias = facts.exposureBias {
      let rounded = (bias * 10).rounded() / 10
      parts.append(rounded == 0 ? "0 EV" : (rounded > 0 ? "+" : "−") + number(abs(rounded)) + " EV")
    }
    return parts
  }

  /// A shutter time as cameras show it: "1/250 s" below a second, "2 s", "1.5 s" above.
  static func shutter(_ exposure: ShootingFacts.ExposureTime) -> String {
    let seconds = Double(exposure.numerator) / Double(exposure.denominator)
    if seconds >= 1 { return number(seconds) + " s" }
    return "1/\(Int((1 / seconds).rounded())) s"
  }

  /// "48.85837° N, 2.29448° E · 35 m".
  static func position(_ facts: ShootingFacts) -> String? {
    guard let latitude = facts.latitude, let longitude = facts.longitude else { return nil }
    let place =
      String(
        format: "%.5f° %@, %.5f° %@", abs(latitude), latitude < 0 ? "S" : "N",
        abs(longitude), longitude < 0 ? "W" : "E")
    return place + (facts.altitude.map { " · \(Int($0.rounded())) m" } ?? "")
  }

  /// One decimal where it has one: 2.8, 8, 35, 1.5.
  static func number(_ value: Double) -> String {
    let tenths = (value * 10).rounded()
    return tenths.truncatingRemainder(dividingBy: 10) == 0
      ? String(Int(tenths / 10)) : String(format: "%.1f", tenths / 10)
  }

  /// The panel's box for `lines` on a screen of `width` × `height`: at the right, below the
  /// title bar, at most 72 columns and the viewport's height; nil when it does not fit.
  static func rect(for lines: [String], width: Int, height: Int) -> CellRect? {
    let widest = lines.map { GraphemeWidth.columns(of: $0) }.max() ?? 0
    let boxWidth = min(width - 2, max(30, widest + 4), 72)
    let boxHeight = min(height - 3, lines.count + 2)
    guard boxWidth > 10, boxHeight > 2 else { return nil }
    return CellRect(x: width - boxWidth - 1, y: 2, width: boxWidth, height: boxHeight)
  }
}
