import TesseraImageSynthesis

/// The pixel box an image is shown in, and whether it fills it (cropping) or fits inside.
struct ImageBox: Hashable, Sendable {
  let width: Int
  let height: Int
  let fills: Bool
}

/// Which file an item's image is downloaded from, and its full pixel size.
struct PhotoSource: Hashable, Sendable {
  let item: Int
  let url: String
  let size: String
  let width: Int
  let height: Int
}

/// The feed server's photos for the simulation: for an item and a box, the smallest size
/// the server offers that covers the box (as the gallery picks it), and that file's real
/// bytes, generated once and kept (shared by every run that uses the same library).
/// Look-ups are O(1) after the first; generating a photo is O(pixels).
@MainActor
public final class SimulatedPhotoLibrary {
  public let imageSeed: UInt64
  private var sources: [BoxedItem: PhotoSource] = [:]
  private var encoded: [String: (bytes: [UInt8], contentType: String)] = [:]
  /// Photos generated so far (for the bench's notes).
  public private(set) var generatedCount = 0

  private struct BoxedItem: Hashable {
    let item: Int
    let box: ImageBox
  }

  /// Flickr's non-square sizes from small to large, as suffixes.
  static let ladder = ["t", "m", "n", "w", "", "z", "c", "b"]
  static let host = "http://feed.tessera.invalid/"

  public init(imageSeed: UInt64 = 1) { self.imageSeed = imageSeed }

  func source(item: Int, box: ImageBox) -> PhotoSource {
    let key = BoxedItem(item: item, box: box)
    if let known = sources[key] { return known }
    var chosen: (size: String, width: Int, height: Int)?
    for size in Self.ladder {
      guard let pixels = GeneratedImages.size(id: item, size: size, seed: imageSeed) else {
        continue
      }
      chosen = (size, pixels.width, pixels.height)
      if covers(pixels, box) { break }
    }
    let picked = chosen ?? ("b", box.width, box.height)
    let source = PhotoSource(
      item: item,
      url: Self.host + GeneratedImages.path(id: item, size: picked.size, seed: imageSeed),
      size: picked.size, width: picked.width, height: picked.height)
    sources[key] = source
    return source
  }

  /// The bytes the server sends for `source`.
  func bytes(
    for source: PhotoSource
  ) throws(SimulationError) -> (
    bytes: [UInt8], contentType: String
  ) {
    if let known = encoded[source.url] { return known }
    do {
      let photo = try GeneratedImages.photo(id: source.item, size: source.size, seed: imageSeed)
      generatedCount += 1
      encoded[source.url] = (photo.bytes, photo.contentType)
      return (photo.bytes, photo.contentType)
    } catch {
      throw .imageGenerationFailed(error.description)
    }
  }

  /// Whether an image of `pixels` shown in `box` needs no upscaling.
  private func covers(_ pixels: PixelSize, _ box: ImageBox) -> Bool {
    guard pixels.width > 0, pixels.height > 0 else { return false }
    let scaleX = Double(box.width) / Double(pixels.width)
    let scaleY = Double(box.height) / Double(pixels.height)
    // Filling scales by the larger factor (the image covers the box), fitting by the smaller.
    return (box.fills ? max(scaleX, scaleY) : min(scaleX, scaleY)) <= 1
  }
}

/// What can stop a run.
public enum SimulationError: Error, CustomStringConvertible, Equatable {
  case imageGenerationFailed(String)
  case pipelineDidNotSettle(String)
  case invalidConfiguration(String)

  public var description: String {
    switch self {
    case .imageGenerationFailed(let why): "could not generate a server image: \(why)"
    case .pipelineDidNotSettle(let state):
      "the image pipeline did not settle within 60 s of wall-clock time (\(state))"
    case .invalidConfiguration(let why): "invalid simulation: \(why)"
    }
  }
}
