/// What a walk over a GIF's blocks found: its logical screen, the images (frames) met, whether
/// a looping application extension (NETSCAPE2.0 or ANIMEXTS1.0) came before them, and how the
/// walk ended. The header reader asks it for the size (the frames', when the screen claims
/// more than they cover) and the animation badge asks it for the frame count; one walk serves
/// both, so they can never disagree about where a GIF's blocks are.
///
/// - Complexity: O(blocks walked), at most ``maxBlocks``, each a bounded skip over its
///   sub-blocks (at most ``maxSubBlocks`` each); no allocation beyond the frames' rectangles.
package struct GIFStructure: Equatable, Sendable {
  /// One image descriptor's rectangle on the logical screen.
  package struct Frame: Equatable, Sendable {
    package var left: Int
    package var top: Int
    package var width: Int
    package var height: Int
  }

  /// How the walk ended.
  package enum End: Equatable, Sendable {
    /// The trailer (or a byte that starts no block): the GIF holds no more images.
    case trailer
    /// The bytes ran out first: a prefix of a longer file, or a file cut short.
    case bytesEnded
    /// ``maxBlocks`` blocks were walked.
    case gaveUp
  }

  package static let maxBlocks = 64
  package static let maxSubBlocks = 4_096

  /// The logical screen the header states (unvalidated: a number from the file).
  package var screenWidth: Int
  package var screenHeight: Int
  /// Image descriptors whose ten bytes were all there.
  package var frames: [Frame] = []
  /// Images met: also one whose descriptor the bytes cut (its introducer was there).
  package var images = 0
  package var loops = false
  package var end = End.trailer

  /// Walks `bytes`; nil when they are not a GIF's header and screen size (10 bytes).
  package init?(_ bytes: [UInt8]) {
    guard bytes.count >= 10, ImageSignature(sniffing: bytes) == .gif else { return nil }
    screenWidth = Self.u16(bytes, 6)
    screenHeight = Self.u16(bytes, 8)
    guard bytes.count >= 13 else {  // the screen's size, and the bytes end in its descriptor
      end = .bytesEnded
      return
    }
    var index = 13
    if bytes[10] & 0x80 != 0 { index += 3 << (Int(bytes[10] & 0x07) + 1) }  // global colours
    for _ in 0..<Self.maxBlocks {
      guard index < bytes.count else {
        end = .bytesEnded
        return
      }
      switch bytes[index] {
      case 0x21:  // extension: label, then sub-blocks
        guard index + 2 < bytes.count else {
          end = .bytesEnded
          return
        }
        let first = index + 2
        if bytes[index + 1] == 0xFF, bytes[first] == 11, first + 12 <= bytes.count {
          let application = bytes[(first + 1)..<(first + 12)]
          loops =
            loops || application.elementsEqual("NETSCAPE2.0".utf8)
            || application.elementsEqual("ANIMEXTS1.0".utf8)
        }
        guard let next = Self.subBlocksEnd(bytes, from: first) else {
          end = .bytesEnded
          return
        }
        index = next
      case 0x2C:  // image: descriptor, local colours, LZW code size, sub-blocks
        images += 1
        guard index + 10 <= bytes.count else {
          end = .bytesEnded
          return
        }
        frames.append(
          Frame(
            left: Self.u16(bytes, index + 1), top: Self.u16(bytes, index + 3),
            width: Self.u16(bytes, index + 5), height: Self.u16(bytes, index + 7)))
        let packed = bytes[index + 9]
        var data = index + 10
        if packed & 0x80 != 0 { data += 3 << (Int(packed & 0x07) + 1) }
        guard let next = Self.subBlocksEnd(bytes, from: data + 1) else {
          end = .bytesEnded
          return
        }
        index = next
      default:  // the trailer (0x3B), or anything else: no more images
        end = .trailer
        return
      }
    }
    end = .gaveUp
  }

  /// The width and height the frames met cover on the screen (each frame's far edge, at most
  /// 65535 + 65535); nil before any frame.
  package var framesExtent: (width: Int, height: Int)? {
    guard !frames.isEmpty else { return nil }
    return (
      frames.map { $0.left + $0.width }.max() ?? 0, frames.map { $0.top + $0.height }.max() ?? 0
    )
  }

  /// The size to show: the screen's, unless the frames met cover less of it (a screen that
  /// claims 10000×10000 around a 1×1 image), then the frames' extent. The frames are believed
  /// only when the walk saw them all (it reached the trailer), so a prefix's first small frame
  /// does not shrink a real animation.
  package var shownSize: (width: Int, height: Int) {
    guard end == .trailer, let extent = framesExtent, extent.width > 0, extent.height > 0
    else { return (screenWidth, screenHeight) }
    return (min(screenWidth, extent.width), min(screenHeight, extent.height))
  }

  /// Whether it animates: two images or more; or, when `isWholeFile` is false (the bytes are a
  /// prefix), a loop extension before bytes that end inside the first image — writers such
  /// as ffmpeg add one even to a single picture, so the loop alone never decides for a whole
  /// file.
  package func isAnimated(isWholeFile: Bool) -> Bool {
    if images >= 2 { return true }
    return !isWholeFile && end == .bytesEnded && loops
  }

  private static func u16(_ bytes: [UInt8], _ at: Int) -> Int {
    Int(bytes[at]) | Int(bytes[at + 1]) << 8
  }

  /// Where the sub-blocks starting at `start` end (past their zero-length terminator); nil
  /// when they run past the bytes or past ``maxSubBlocks``.
  private static func subBlocksEnd(_ bytes: [UInt8], from start: Int) -> Int? {
    var index = start
    for _ in 0..<maxSubBlocks {
      guard index < bytes.count else { return nil }
      let length = Int(bytes[index])
      index += 1 + length  // at most 256 past an index below count: no overflow
      if length == 0 { return index }
    }
    return nil
  }
}
