import Foundation
import TesseraImages
import TesseraTestSupport
import TesseraUtilities
import Testing

/// The difference hash that stacks bursts: frames of one scene land a few bits apart,
/// different scenes about half the bits apart, on seeded synthetic scenes.
struct PerceptualHashTests {
  /// A scene of soft blobs (a photo's large shapes), seen through a frame moved by
  /// (`dx`, `dy`) of its width and height, `gain` times as bright, with sensor noise.
  struct Scene {
    struct Blob {
      var x, y, radius: Double
      var colour: (Double, Double, Double)
    }
    let blobs: [Blob]

    init(seed: UInt64) {
      var random = SplitMix64(seed: seed)
      blobs = (0..<24).map { _ in
        Blob(
          x: random.unit() * 1.2 - 0.1, y: random.unit() * 1.2 - 0.1,
          radius: 0.05 + random.unit() * 0.3,
          colour: (random.unit() * 255, random.unit() * 255, random.unit() * 255))
      }
    }

    func frame(
      width: Int = 160, height: Int = 120, dx: Double = 0, dy: Double = 0, gain: Double = 1,
      noiseSeed: UInt64
    ) throws -> TesseraImages.Image {
      var random = SplitMix64(seed: noiseSeed)
      var pixels = [UInt8](repeating: 255, count: width * height * 4)
      for y in 0..<height {
        for x in 0..<width {
          let u = Double(x) / Double(width) + dx
          let v = Double(y) / Double(height) + dy
          var sum = (60.0, 60.0, 60.0)
          var weights = 1.0
          for blob in blobs {
            let d2 = ((u - blob.x) * (u - blob.x) + (v - blob.y) * (v - blob.y))
            let weight = exp(-d2 / (blob.radius * blob.radius)) * 3
            sum.0 += blob.colour.0 * weight
            sum.1 += blob.colour.1 * weight
            sum.2 += blob.colour.2 * weight
            weights += weight
          }
          let offset = (y * width + x) * 4
          for (channel, value) in [sum.0, sum.1, sum.2].enumerated() {
            let noise = (random.unit() - 0.5) * 16  // ±8 levels of grain
            pixels[offset + channel] = UInt8(clamping: Int((value / weights * gain + noise)))
          }
        }
      }
      return try TesseraImages.Image(
        width: width, height: height, pixels: pixels,
        originalSize: PixelSize(width: width, height: height))
    }
  }

  @Test func aGradientBrighterToTheLeftSetsEveryBitAndTheMirrorNone() throws {
    let width = 90
    let height = 40
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        for channel in 0..<3 { pixels[(y * width + x) * 4 + channel] = UInt8(250 - x * 2) }
      }
    }
    let image = try TesseraImages.Image(
      width: width, height: height, pixels: pixels,
      originalSize: PixelSize(width: width, height: height))
    #expect(PerceptualHash(of: image).bits == .max)
    let mirrored = try TesseraImages.Image(
      width: width, height: height,
      pixels: TestImages.mirrored(pixels, width: width, height: height),
      originalSize: PixelSize(width: width, height: height))
    #expect(PerceptualHash(of: mirrored).bits == 0)
    #expect(PerceptualHash(of: image).distance(to: PerceptualHash(of: mirrored)) == 64)
  }

  @Test func anImageNarrowerThanTheGridHashesWithoutCrashing() throws {
    let image = try TesseraImages.Image(
      width: 3, height: 2, pixels: [UInt8](repeating: 90, count: 24),
      originalSize: PixelSize(width: 3, height: 2))
    #expect(PerceptualHash(of: image).bits == 0, "a flat picture has no brighter neighbour")
  }

  /// 40 scenes, 5 frames each (moved up to 2 % of the frame, ±6 % exposure, new grain every
  /// frame, thumbnails of 96 and 64 pixels): consecutive frames of a scene stay within
  /// `PerceptualHash.burstThreshold`, and at most 1 % of pairs of scenes come within it.
  @Test func burstsStayWithinTheThresholdAndDifferentScenesBeyondIt() throws {
    var random = SplitMix64(seed: 36)
    var within: [Int] = []
    var firstFrames: [PerceptualHash] = []
    for scene in 0..<40 {
      let subject = Scene(seed: UInt64(1000 + scene))
      var previous: PerceptualHash?
      for frame in 0..<5 {
        let image = try subject.frame(
          width: frame % 2 == 0 ? 96 : 64, height: frame % 2 == 0 ? 72 : 48,
          dx: (random.unit() - 0.5) * 0.04, dy: (random.unit() - 0.5) * 0.04,
          gain: 0.94 + random.unit() * 0.12, noiseSeed: random.next())
        let hash = PerceptualHash(of: image)
        if let previous { within.append(previous.distance(to: hash)) }
        if frame == 0 { firstFrames.append(hash) }
        previous = hash
      }
    }
    var between: [Int] = []
    for (index, hash) in firstFrames.enumerated() {
      for other in firstFrames[(index + 1)...] { between.append(hash.distance(to: other)) }
    }
    let threshold = PerceptualHash.burstThreshold
    let missed = within.filter { $0 > threshold }.count
    let merged = between.filter { $0 <= threshold }.count
    print(
      "dHash on synthetic bursts: within a burst max \(within.max() ?? -1), median "
        + "\(within.sorted()[within.count / 2]); between scenes min \(between.min() ?? -1), median "
        + "\(between.sorted()[between.count / 2]); missed \(missed) of \(within.count), "
        + "merged \(merged) of \(between.count); at 8, 10, 12, 14 bits: missed "
        + "\([8, 10, 12, 14].map { t in within.filter { $0 > t }.count }), merged "
        + "\([8, 10, 12, 14].map { t in between.filter { $0 <= t }.count })")
    #expect(missed * 100 <= within.count * 5, "frames of a burst apart: \(within.sorted())")
    #expect(
      merged * 100 <= between.count, "scenes that would merge: \(between.sorted().prefix(20))")
  }
}
