/// The machine-readable id every generated image carries: its top band (`bandFraction` of the
/// height, full width) is filled with `color(for: id)`. Three bits per channel pick one of
/// eight levels 32 apart, so the colour survives JPEG and downsampling; ids are told apart
/// modulo 512, and no screen holds 512 cells.
///
/// The rest of every image keeps at least one channel exactly between two levels, so
/// `id(for:)` answers nil for any colour sampled outside the band. Both lookups are O(1).
public enum IdMarker {
  /// Ids are told apart modulo this: 8 levels in each of 3 channels.
  public static let modulus = 512
  /// The eight channel levels: 16, 48, …, 240.
  public static let levels: [UInt8] = (0..<8).map { UInt8(16 + 32 * $0) }
  /// Largest distance from a level that still reads as that level.
  public static let tolerance = 10
  /// Fraction of the image height the band covers (the tests rely on at least 0.12).
  public static let bandFraction = 0.16
  /// Values half-way between two levels; body colours keep one channel at one of these.
  package static let midpoints: [UInt8] = [64, 96, 128, 160, 192]

  /// Neighbouring ids get unrelated colours: the id is scrambled by an odd multiplier (a
  /// bijection modulo 512) before its bits become channel levels.
  private static let scramble = 229
  private static let unscramble: Int = {
    (1..<modulus).first { ($0 * scramble) % modulus == 1 } ?? 1
  }()

  /// The band colour of image `id` (any integer; only `id` modulo `modulus` counts).
  public static func color(for id: Int) -> RGB {
    let code = (((id % modulus) + modulus) % modulus * scramble) % modulus
    return RGB(levels[code >> 6], levels[(code >> 3) & 7], levels[code & 7])
  }

  /// The id (modulo `modulus`, in 0..<512) a band colour encodes; nil when any channel is
  /// farther than `tolerance` from every level.
  public static func id(for color: RGB) -> Int? {
    guard let r = level(color.red), let g = level(color.green), let b = level(color.blue) else {
      return nil
    }
    let code = r << 6 | g << 3 | b
    return (code * unscramble) % modulus
  }

  private static func level(_ value: UInt8) -> Int? {
    let index = min(7, max(0, (Int(value) - 16 + 16) / 32))
    return abs(Int(value) - Int(levels[index])) <= tolerance ? index : nil
  }
}
