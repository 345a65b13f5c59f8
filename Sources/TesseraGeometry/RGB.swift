/// A 24-bit colour: 8 bits each of red, green and blue.
///
/// The one colour type of Tessera: the terminal's cells and captured screens, and the marker
/// colour the generated images carry, are the same values.
public struct RGB: Hashable, Sendable, CustomStringConvertible {
  /// The red channel, 0…255.
  public var red: UInt8
  /// The green channel, 0…255.
  public var green: UInt8
  /// The blue channel, 0…255.
  public var blue: UInt8

  /// The colour with these channels.
  public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  /// "rgb(R,G,B)", e.g. "rgb(255,0,0)".
  public var description: String { "rgb(\(red),\(green),\(blue))" }
}
