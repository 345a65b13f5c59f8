import Foundation
import TesseraTerminal
import Testing

@testable import TesseraGallery

/// Text the gallery draws on the terminal's own background must read on a light and on a
/// dark one (xterm's default is black on white; most others white on black).
struct PaletteContrastTests {
  typealias Palette = GalleryScreen.Palette

  /// WCAG's relative luminance of an sRGB colour.
  static func luminance(_ color: RGB) -> Double {
    func linear(_ channel: UInt8) -> Double {
      let value = Double(channel) / 255
      return value <= 0.040_45 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }
    return 0.2126 * linear(color.red) + 0.7152 * linear(color.green) + 0.0722 * linear(color.blue)
  }

  static func contrast(_ a: RGB, _ b: RGB) -> Double {
    let (x, y) = (luminance(a), luminance(b))
    return (max(x, y) + 0.05) / (min(x, y) + 0.05)
  }

  @Test(arguments: [
    ("dim", Palette.dim), ("caption", Palette.caption), ("title", Palette.title),
    ("error", Palette.error),
  ])
  func secondaryTextReadsOnBlackAndOnWhite(name: String, style: CellStyle) {
    #expect(style.background == .terminalDefault, "\(name) sits on the terminal's background")
    guard case .rgb(let color) = style.foreground else { return }  // the terminal's own pair
    #expect(Self.contrast(color, RGB(0, 0, 0)) >= 4.5, "\(name) on black")
    #expect(Self.contrast(color, RGB(255, 255, 255)) >= 4.5, "\(name) on white")
  }

  @Test func theOldGreyWouldNotHaveRead() {
    #expect(Self.contrast(RGB(200, 200, 200), RGB(255, 255, 255)) < 4.5)
  }
}
