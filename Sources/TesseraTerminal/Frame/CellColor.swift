/// A cell's foreground or background: the terminal's own default, or a 24-bit colour.
public enum CellColor: Hashable, Sendable, CustomStringConvertible {
  case terminalDefault
  case rgb(RGB)

  public static func rgb(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> CellColor {
    .rgb(RGB(red, green, blue))
  }

  public var description: String {
    switch self {
    case .terminalDefault: "default"
    case .rgb(let colour): colour.description
    }
  }
}
