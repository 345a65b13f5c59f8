import Foundation

/// Every limit on what the freedesktop.org thumbnail folders hand back, in one place. Those
/// folders are shared by every program of the user (file managers, image viewers, old
/// versions of each): what is in them is outside input, checked against these before any
/// arithmetic.
enum ThumbnailLimits {
  /// The largest thumbnail file read. An xx-large thumbnail is 1024×1024 at most: 4 MiB of
  /// RGBA before compression; a file four times that is not a thumbnail.
  static let maxFileBytes = 16 << 20

  /// The most text chunks read from one PNG. Writers put half a dozen `Thumb::` keys there.
  static let maxTextChunks = 64

  /// The longest text value kept: a percent-encoded URI of a 4,096-byte path is 12 KiB.
  static let maxTextBytes = 16 << 10

  /// The PNG specification's limit on a keyword (1…79 bytes).
  static let maxKeywordBytes = 79

  /// The widest or tallest side PNG allows (2³¹ − 1); a header outside 1…this is broken.
  static let maxPNGSide = Int(Int32.max)

  /// The most digits of a `Thumb::MTime` or `Thumb::Size` accepted: an unsigned 64-bit number.
  static let maxNumberDigits = 20
}
