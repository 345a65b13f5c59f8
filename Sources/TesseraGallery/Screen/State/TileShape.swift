import Foundation

/// The shape of a grid tile's picture on the screen, width ÷ height. The grid fills each tile
/// with its photo and crops what sticks out (as every photo grid does), so a tile the shape of
/// the photos loses nothing of them: in a 4-column grid of square-ish tiles a 3:2 landscape
/// photo lost a third of its width. `auto` takes the landscape shape most of the feed's photos
/// have (cameras write 3:2 and 4:3, phones 4:3), decided once from the first photos whose size
/// is known, so the grid does not change shape while a person looks at it. Where most photos
/// are upright it stays square, as the photo grids of phones are: portrait tiles would leave a
/// screen one row of photos. `--tiles` names any shape instead (`3:4`); a photo of another
/// shape is still cropped to it.
///
/// - Complexity: deciding is O(shapes looked at), at most ``sample``.
package enum TileShape: Equatable, Sendable, CustomStringConvertible {
  /// The photos' own shape once decided (nil: no photo's size known yet, tiles are square).
  case auto(decided: Double?)
  /// The shape the person asked for.
  case fixed(Double)

  /// The shapes `auto` chooses among, by their names: upright photos count as square.
  static let common: [(name: String, ratio: Double)] = [
    ("3:2", 3 / 2), ("4:3", 4 / 3), ("16:9", 16 / 9), ("1:1", 1),
  ]
  /// Photos looked at to decide: the first screens' worth and more.
  static let sample = 256
  /// Feed items searched for those sizes: the shape is decided on a feed's first photos, so a
  /// long feed whose sizes are not known yet costs each change no more than this.
  static let lookedAt = 1000
  /// Shapes a tile may take: from a 4:1 strip to a 1:4 column.
  static let ratios: ClosedRange<Double> = 0.25...4

  /// The picture's width ÷ height: square until `auto` has decided.
  var ratio: Double {
    switch self {
    case .auto(let decided): decided ?? 1
    case .fixed(let ratio): ratio
    }
  }

  /// `auto`, `square`, or `W:H` with each side 1…100 and the shape within ``ratios``
  /// (`3:2`, `16:9`, `4:5`); nil for anything else.
  package init?(argument: String) {
    switch argument.lowercased() {
    case "auto": self = .auto(decided: nil)
    case "square": self = .fixed(1)
    default:
      let sides = argument.split(separator: ":", omittingEmptySubsequences: false)
      guard sides.count == 2, let width = Int(sides[0]), let height = Int(sides[1]),
        (1...100).contains(width), (1...100).contains(height),
        Self.ratios.contains(Double(width) / Double(height))
      else { return nil }
      self = .fixed(Double(width) / Double(height))
    }
  }

  /// The common shape (``common``) that most of `ratios` (width ÷ height each, the first
  /// ``sample`` looked at) are nearest to, by their proportion; a tie goes to the shape listed
  /// first. Nil when none is a usable number.
  static func mostCommon(_ ratios: some Sequence<Double>) -> Double? {
    var votes = [Int](repeating: 0, count: common.count)
    for ratio in ratios.prefix(sample) where ratio.isFinite && ratio > 0 {
      let nearest = common.indices.min {
        abs(log(ratio / common[$0].ratio)) < abs(log(ratio / common[$1].ratio))
      }!
      votes[nearest] += 1
    }
    guard let most = votes.max(), most > 0 else { return nil }
    return common[votes.firstIndex(of: most)!].ratio
  }

  package var description: String {
    if let named = Self.common.first(where: { abs($0.ratio - ratio) < 1e-9 }) {
      return named.name
    }
    return String(format: "%.2f:1", ratio)
  }
}
