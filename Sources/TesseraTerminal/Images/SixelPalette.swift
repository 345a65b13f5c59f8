/// A palette chosen for one image, and each pixel's entry in it: what a sixel image declares
/// and paints with.
///
/// The colours come from the image itself (chafa and libsixel do the same; the fixed
/// 252-colour cube this replaces spent most of its entries on colours a photo never has, and
/// needed dithering that broke every run of equal sixels): pixels are gathered in a histogram
/// of 18-bit colours, split by variance-minimising median cut into at most `maximumColours`
/// boxes, refined by a few weighted k-means passes, and rounded to sixel's 0–100
/// percentages. Each pixel then takes the entry nearest its histogram bin, with no dithering:
/// flat areas stay flat, so the encoder's runs stay long. Entries are numbered by how many
/// pixels use them, so the most used colours have the shortest register numbers.
///
/// - Complexity: O(pixels + bins × log bins × colours) for the cut, plus
///   O(bins × colours × passes) for the refinement, where bins ≤ min(pixels, 262,144).
struct SixelPalette {
  /// The palette entries as sixel percentages (0–100 each).
  var percentages: [(red: Int, green: Int, blue: Int)]
  /// Per pixel, its entry (``transparent`` for pixels with alpha below 128).
  var indices: [UInt8]

  /// The index of a pixel that is not painted.
  static let transparent: UInt8 = 255
  /// At most this many colours: register 255 stays free for ``transparent``.
  static let largestPalette = 255
  /// Refinement passes after the cut; the third adds little.
  static let refinementPasses = 2
  /// The cut stops once the boxes' mean squared error per pixel (summed over R, G and B, on
  /// the histogram's bin means) is at most this: under 2 levels per channel, below which more
  /// colours mostly spell out grain at the cost of shorter runs (about 42 dB PSNR with the
  /// error inside the 64-level bins, above chafa's on the same tiles).
  static let targetError: Float = 9

  /// The colour budget for an image of `pixelCount` pixels: one colour per 90 pixels, 16 to
  /// 255. A palette entry costs about 14 bytes to declare, so a small crop gets few.
  static func colourBudget(pixelCount: Int) -> Int {
    (pixelCount / 90).clamped(to: 16...largestPalette)
  }

  /// The palette and indices of `width × height` RGBA `pixels`.
  init(pixels: [UInt8], width: Int, height: Int, maximumColours: Int? = nil) {
    let count = width * height
    let budget = (maximumColours ?? Self.colourBudget(pixelCount: count))
      .clamped(to: 1...Self.largestPalette)
    let histogram = PaletteHistogram(pixels: pixels, count: count)
    var centres = histogram.medianCut(
      colours: budget, targetError: Self.targetError * Float(count))
    for _ in 0..<Self.refinementPasses {
      centres = histogram.refine(centres)
    }
    let rounded = centres.map { centre in
      (
        red: Self.percent(centre.0), green: Self.percent(centre.1), blue: Self.percent(centre.2)
      )
    }
    let nearest = histogram.nearest(to: rounded.map(Self.colour(of:)))
    // Number the entries by use, most used first; drop the unused.
    var uses = [Int](repeating: 0, count: rounded.count)
    for (bin, entry) in nearest.enumerated() { uses[entry] += histogram.counts[bin] }
    let order = uses.indices.filter { uses[$0] > 0 }.sorted { uses[$0] > uses[$1] }
    var renumbered = [UInt8](repeating: 0, count: rounded.count)
    for (position, entry) in order.enumerated() { renumbered[entry] = UInt8(position) }
    percentages = order.map { rounded[$0] }
    var indices = [UInt8](repeating: Self.transparent, count: count)
    for pixel in 0..<count {
      let bin = histogram.binOfPixel[pixel]
      if bin >= 0 { indices[pixel] = renumbered[nearest[Int(bin)]] }
    }
    self.indices = indices
  }

  /// An image already quantized: its entries and each pixel's.
  init(percentages: [(red: Int, green: Int, blue: Int)], indices: [UInt8]) {
    self.percentages = percentages
    self.indices = indices
  }

  /// The pixels of `crop` of this image (`width` pixels wide), with only the entries they use,
  /// renumbered by use in the crop: the same colours as the whole image's, so a crop drawn
  /// next to the rest of the image shows no seam. O(crop pixels + entries).
  func cropped(_ crop: Rect, width: Int) -> SixelPalette {
    var uses = [Int](repeating: 0, count: percentages.count)
    var part = [UInt8](repeating: Self.transparent, count: crop.width * crop.height)
    for row in 0..<crop.height {
      let from = (crop.y + row) * width + crop.x
      for column in 0..<crop.width {
        let entry = indices[from + column]
        part[row * crop.width + column] = entry
        if entry != Self.transparent { uses[Int(entry)] += 1 }
      }
    }
    let order = uses.indices.filter { uses[$0] > 0 }.sorted { uses[$0] > uses[$1] }
    var renumbered = [UInt8](repeating: Self.transparent, count: 256)
    for (position, entry) in order.enumerated() { renumbered[entry] = UInt8(position) }
    for index in part.indices { part[index] = renumbered[Int(part[index])] }
    return SixelPalette(percentages: order.map { percentages[$0] }, indices: part)
  }

  /// A channel's 0–255 value as the nearest sixel percentage.
  private static func percent(_ value: Float) -> Int {
    Int(clamping: Double(value) * 100 / 255, to: 0...100)
  }

  /// What a terminal shows for a palette entry, 0–255 per channel.
  static func colour(of entry: (red: Int, green: Int, blue: Int)) -> (Float, Float, Float) {
    (Float(entry.red) * 2.55, Float(entry.green) * 2.55, Float(entry.blue) * 2.55)
  }
}

/// The image's colours in 64 levels per channel, weighted by pixel count, with exact sums so
/// each bin's mean is its pixels' mean.
struct PaletteHistogram {
  var counts: [Int] = []
  var means: [(Float, Float, Float)] = []
  /// Per pixel, its bin (-1: transparent).
  var binOfPixel: [Int32]

  init(pixels: [UInt8], count: Int) {
    var binOfKey = [Int32](repeating: -1, count: 1 << 18)
    var sums: [(Int, Int, Int)] = []
    binOfPixel = [Int32](repeating: -1, count: count)
    for pixel in 0..<count {
      let offset = pixel * 4
      guard pixels[offset + 3] >= 128 else { continue }
      let red = Int(pixels[offset])
      let green = Int(pixels[offset + 1])
      let blue = Int(pixels[offset + 2])
      let key = (red >> 2) << 12 | (green >> 2) << 6 | blue >> 2
      var bin = binOfKey[key]
      if bin < 0 {
        bin = Int32(counts.count)
        binOfKey[key] = bin
        counts.append(0)
        sums.append((0, 0, 0))
      }
      let index = Int(bin)
      counts[index] += 1
      sums[index].0 += red
      sums[index].1 += green
      sums[index].2 += blue
      binOfPixel[pixel] = bin
    }
    means = zip(counts, sums).map { count, sum in
      let weight = Float(count)
      return (Float(sum.0) / weight, Float(sum.1) / weight, Float(sum.2) / weight)
    }
  }

  /// A box of bins: `members[range]`, with its pixel count and squared error.
  private struct Box {
    var range: Range<Int>
    var error: Float
  }

  /// At most `colours` centres: the box with the largest squared error is split along its
  /// widest channel where the two halves' errors sum least, until the boxes' summed error is
  /// at most `targetError`.
  func medianCut(colours: Int, targetError: Float) -> [(Float, Float, Float)] {
    guard !counts.isEmpty else { return [] }
    var members = Array(counts.indices)
    var boxes = [Box(range: members.indices, error: error(of: members[...]))]
    while boxes.count < colours, boxes.reduce(0, { $0 + $1.error }) > targetError {
      guard let widest = boxes.indices.max(by: { boxes[$0].error < boxes[$1].error }),
        boxes[widest].error > 0, boxes[widest].range.count > 1
      else { break }
      let box = boxes[widest]
      let channel = widestChannel(members[box.range])
      members[box.range].sort { Self.value(means[$0], channel) < Self.value(means[$1], channel) }
      let split = bestSplit(members[box.range], channel: channel)
      let low = box.range.lowerBound..<split
      let high = split..<box.range.upperBound
      boxes[widest] = Box(range: low, error: error(of: members[low]))
      boxes.append(Box(range: high, error: error(of: members[high])))
    }
    return boxes.map { mean(of: members[$0.range]) }
  }

  /// One weighted k-means pass: each bin joins its nearest centre, each centre moves to its
  /// bins' mean (a centre left without bins stays).
  func refine(_ centres: [(Float, Float, Float)]) -> [(Float, Float, Float)] {
    let assignment = nearest(to: centres)
    var sums = [(Float, Float, Float, Float)](repeating: (0, 0, 0, 0), count: centres.count)
    for (bin, centre) in assignment.enumerated() {
      let weight = Float(counts[bin])
      sums[centre].0 += means[bin].0 * weight
      sums[centre].1 += means[bin].1 * weight
      sums[centre].2 += means[bin].2 * weight
      sums[centre].3 += weight
    }
    return centres.indices.map { index in
      let sum = sums[index]
      return sum.3 > 0 ? (sum.0 / sum.3, sum.1 / sum.3, sum.2 / sum.3) : centres[index]
    }
  }

  /// Per bin, the index of the nearest of `colours` (squared RGB distance; of equals, the
  /// lowest index).
  ///
  /// The colours are sorted by red, and each bin's search walks out both ways from its own
  /// red, each way ending where the red difference alone is more than the best distance: a
  /// photo's 255 colours spread along red, so a bin looks at a few dozen, not all (this was
  /// most of a kitty palette upload's time).
  ///
  /// - Complexity: O(bins × colours) at worst, O(bins × (log colours + nearby colours)) on a
  ///   photo.
  func nearest(to colours: [(Float, Float, Float)]) -> [Int] {
    let order = colours.indices.sorted { colours[$0].0 < colours[$1].0 }
    let sorted = order.map { colours[$0] }
    return means.map { mean in
      var best = 0
      var bestIndex = Int.max
      var bestDistance = Float.infinity
      func consider(_ position: Int) {
        let colour = sorted[position]
        let red = mean.0 - colour.0
        let green = mean.1 - colour.1
        let blue = mean.2 - colour.2
        let distance = red * red + green * green + blue * blue
        let index = order[position]
        if distance < bestDistance || (distance == bestDistance && index < bestIndex) {
          bestDistance = distance
          bestIndex = index
          best = index
        }
      }
      // The first colour whose red is not below the bin's.
      var low = 0
      var high = sorted.count
      while low < high {
        let middle = (low + high) / 2
        if sorted[middle].0 < mean.0 { low = middle + 1 } else { high = middle }
      }
      var up = low
      var down = low - 1
      while up < sorted.count || down >= 0 {
        if up < sorted.count {
          let gap = sorted[up].0 - mean.0
          if gap * gap > bestDistance {
            up = sorted.count
          } else {
            consider(up)
            up += 1
          }
        }
        if down >= 0 {
          let gap = mean.0 - sorted[down].0
          if gap * gap > bestDistance {
            down = -1
          } else {
            consider(down)
            down -= 1
          }
        }
      }
      return best
    }
  }

  private static func value(_ colour: (Float, Float, Float), _ channel: Int) -> Float {
    channel == 0 ? colour.0 : channel == 1 ? colour.1 : colour.2
  }

  private func mean(of bins: ArraySlice<Int>) -> (Float, Float, Float) {
    var sum: (Float, Float, Float) = (0, 0, 0)
    var total: Float = 0
    for bin in bins {
      let weight = Float(counts[bin])
      sum.0 += means[bin].0 * weight
      sum.1 += means[bin].1 * weight
      sum.2 += means[bin].2 * weight
      total += weight
    }
    guard total > 0 else { return (0, 0, 0) }
    return (sum.0 / total, sum.1 / total, sum.2 / total)
  }

  private func error(of bins: ArraySlice<Int>) -> Float {
    let centre = mean(of: bins)
    var error: Float = 0
    for bin in bins {
      let red = means[bin].0 - centre.0
      let green = means[bin].1 - centre.1
      let blue = means[bin].2 - centre.2
      error += Float(counts[bin]) * (red * red + green * green + blue * blue)
    }
    return error
  }

  /// The channel along which the bins' weighted variance is largest.
  private func widestChannel(_ bins: ArraySlice<Int>) -> Int {
    let centre = mean(of: bins)
    var spread: (Float, Float, Float) = (0, 0, 0)
    for bin in bins {
      let weight = Float(counts[bin])
      spread.0 += weight * (means[bin].0 - centre.0) * (means[bin].0 - centre.0)
      spread.1 += weight * (means[bin].1 - centre.1) * (means[bin].1 - centre.1)
      spread.2 += weight * (means[bin].2 - centre.2) * (means[bin].2 - centre.2)
    }
    if spread.0 >= spread.1, spread.0 >= spread.2 { return 0 }
    return spread.1 >= spread.2 ? 1 : 2
  }

  /// The index in `bins` (sorted along `channel`) where splitting leaves the least squared
  /// error along that channel; both halves non-empty. O(bins) with prefix sums.
  private func bestSplit(_ bins: ArraySlice<Int>, channel: Int) -> Int {
    var totalWeight: Float = 0
    var totalSum: Float = 0
    var totalSquares: Float = 0
    for bin in bins {
      let weight = Float(counts[bin])
      let value = Self.value(means[bin], channel)
      totalWeight += weight
      totalSum += weight * value
      totalSquares += weight * value * value
    }
    var weight: Float = 0
    var sum: Float = 0
    var squares: Float = 0
    var best = bins.startIndex + 1
    var bestError = Float.infinity
    for index in bins.startIndex..<(bins.endIndex - 1) {
      let bin = bins[index]
      let binWeight = Float(counts[bin])
      let value = Self.value(means[bin], channel)
      weight += binWeight
      sum += binWeight * value
      squares += binWeight * value * value
      let restWeight = totalWeight - weight
      guard restWeight > 0 else { break }
      let restSum = totalSum - sum
      let error =
        (squares - sum * sum / weight) + (totalSquares - squares - restSum * restSum / restWeight)
      if error < bestError {
        bestError = error
        best = index + 1
      }
    }
    return best
  }
}
