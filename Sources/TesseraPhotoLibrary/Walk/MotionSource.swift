/// Where a photo's motion is: the video of a Live Photo beside it (`IMG_1.MOV` beside
/// `IMG_1.HEIC`, read whole), or the MP4 appended to a motion photo's JPEG (a byte range of
/// the photo's own file). What a player opens; nothing of it has been read or checked as a
/// video yet, so it is as untrusted as any file.
public struct MotionSource: Sendable, Hashable {
  /// The file that holds the video.
  public let path: String
  /// Where the video starts in `path`: 0 for a Live Photo's own video file.
  public let byteOffset: Int64
  /// The video's length in bytes, nil for the whole file from `byteOffset` on (a Live Photo's).
  public let byteLength: Int64?

  public init(path: String, byteOffset: Int64 = 0, byteLength: Int64? = nil) {
    self.path = path
    self.byteOffset = byteOffset
    self.byteLength = byteLength
  }

  /// Whether the video is a file of its own beside the photo (a Live Photo's), which `d`
  /// moves to the Trash with the photo.
  public var isCompanionFile: Bool { byteOffset == 0 && byteLength == nil }
}

extension WalkedFile {
  /// The path of `motionCompanion`: the photo's folder and the video's name; nil without one.
  public var motionCompanionPath: String? {
    guard let motionCompanion else { return nil }
    guard let slash = path.lastIndex(of: "/") else { return motionCompanion }
    return String(path[...slash]) + motionCompanion
  }
}

extension LocalPhoto {
  /// The photo's motion, when it has one: a Live Photo's video beside it (the walk pairs them,
  /// `MotionPairing`), else a motion photo's appended video once its header was read
  /// (`PhotoHeader.appendedMotion`). Nil for a still photo.
  public var motion: MotionSource? {
    if let companion = file.motionCompanionPath { return MotionSource(path: companion) }
    guard let range = header?.appendedMotion else { return nil }
    return MotionSource(
      path: file.path, byteOffset: Int64(range.lowerBound), byteLength: Int64(range.count))
  }
}
