import Testing

@testable import TesseraTerminal

@Suite struct SixelPaletteTests {
  @Test func fewColoursAreKeptExactlyAndNumberedByUse() throws {
    let bitmap = try Bitmap.generated(width: 10, height: 10) { x, y in
      if x < 2 { return (0, 0, 0, 0) }
      if y < 2 { return (255, 0, 0, 255) }
      return x < 5 ? (0, 0, 255, 255) : (255, 255, 255, 255)
    }
    let palette = SixelPalette(pixels: bitmap.pixels, width: 10, height: 10)
    // White 40 px, blue 24, red 16; transparent never an entry.
    #expect(
      palette.percentages.map { [$0.red, $0.green, $0.blue] } == [
        [100, 100, 100], [0, 0, 100], [100, 0, 0],
      ])
    #expect(palette.indices[0] == SixelPalette.transparent)
    #expect(palette.indices[2] == 2)
    #expect(palette.indices[9 * 10 + 9] == 0)
  }

  @Test func aCropUsesTheWholeImagesColoursSoItJoinsWithoutASeam() throws {
    let photo = try SixelEncoderTests.photo(seed: 7, width: 48, height: 36)
    let whole = SixelPalette(pixels: photo.pixels, width: 48, height: 36)
    let crop = Rect(x: 8, y: 12, width: 24, height: 6)
    let part = whole.cropped(crop, width: 48)
    #expect(part.percentages.count <= whole.percentages.count)
    for y in 0..<crop.height {
      for x in 0..<crop.width {
        let mine = part.percentages[Int(part.indices[y * crop.width + x])]
        let theirs = whole.percentages[Int(whole.indices[(crop.y + y) * 48 + crop.x + x])]
        #expect(mine == theirs, "(\(x),\(y))")
      }
    }
  }

  @Test func theColourBudgetGrowsWithThePixelsWithinSixelsRegisters() {
    #expect(SixelPalette.colourBudget(pixelCount: 100) == 16)
    #expect(SixelPalette.colourBudget(pixelCount: 160 * 72) == 128)
    #expect(SixelPalette.colourBudget(pixelCount: 1 << 30) == SixelPalette.largestPalette)
  }

  /// The pruned nearest-colour search gives what trying every colour gives, ties included
  /// (the lowest index), on grainy photo colours and on colours with many equal distances.
  @Test(arguments: [(colours: 255, levels: 256), (colours: 40, levels: 4)])
  func theNearestColourIsTheOneEveryColourTriedWouldGive(colours: Int, levels: Int) throws {
    let photo = try KittyCompressionTests.photo(width: 120, height: 90, grain: 25, seed: 3)
    let histogram = PaletteHistogram(pixels: photo.pixels, count: 120 * 90)
    let values = KittyCompressionTests.bytes(colours * 3, seed: 11, alphabet: levels)
    let centres = (0..<colours).map { index in
      let scale = Float(255) / Float(max(1, levels - 1))
      return (
        Float(values[index * 3]) * scale, Float(values[index * 3 + 1]) * scale,
        Float(values[index * 3 + 2]) * scale
      )
    }
    let everyColour = histogram.means.map { mean in
      centres.indices.min { first, second in
        func distance(_ index: Int) -> Float {
          let (red, green, blue) = (
            mean.0 - centres[index].0, mean.1 - centres[index].1, mean.2 - centres[index].2
          )
          return red * red + green * green + blue * blue
        }
        return (distance(first), first) < (distance(second), second)
      } ?? 0
    }
    let pruned = histogram.nearest(to: centres)
    let differing = zip(pruned, everyColour).filter { $0 != $1 }.count
    #expect(differing == 0, "\(differing) of \(pruned.count) bins differ")
  }
}
