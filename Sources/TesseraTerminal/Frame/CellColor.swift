/// A 24-bit colour.
public struct RGB: Hashable, Sendable, CustomStringConvertible {
  public var red: UInt8
  public var green: UInt8
  public var blue: UInt8

  public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  public var description: String { "rgb(\(red),\(green),\(blue))" }
}

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
