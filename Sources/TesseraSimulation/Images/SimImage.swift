/// An image as the simulation tracks it: whose picture it is, which decoded copy (each
/// download of the seed's makes a new one), and its decoded size.
public struct SimImage: Sendable, Equatable {
  /// The item whose picture this is.
  public let item: Int
  /// Distinct per decoded copy; two copies of one picture look the same on screen.
  public let instance: Int
  /// The URL it came from (the memory cache's key for `tessera`).
  public let url: String
  public let width: Int
  public let height: Int

  /// Bytes of the decoded RGBA bitmap.
  public var decodedBytes: Int { width * height * 4 }
}
