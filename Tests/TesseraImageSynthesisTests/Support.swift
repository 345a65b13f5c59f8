import TesseraImageSynthesis
import TesseraTestSupport

/// What the tests read off a decoded image: mean colours and the id marker.
extension TestImages.Decoded {
  /// Mean colour of a rectangle.
  func mean(x: Range<Int>, y: Range<Int>) -> RGB {
    var sums = [0, 0, 0]
    for row in y {
      for column in x {
        let p = rgb(column, row)
        sums[0] += Int(p.red)
        sums[1] += Int(p.green)
        sums[2] += Int(p.blue)
      }
    }
    let n = max(1, x.count * y.count)
    return RGB(UInt8(sums[0] / n), UInt8(sums[1] / n), UInt8(sums[2] / n))
  }

  /// The id the marker band encodes, sampled as a test of a cell would: the middle half of
  /// the width, rows from 2 % to 10 % of the height.
  var markerID: Int? {
    let rows = (height * 2 / 100)..<max(height * 2 / 100 + 1, height * 10 / 100)
    return IdMarker.id(for: mean(x: (width / 4)..<(width * 3 / 4), y: rows))
  }
}
