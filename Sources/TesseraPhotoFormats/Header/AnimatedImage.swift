/// Whether a file's first bytes are an animation the detail view plays: a GIF with two images
/// or more (`GIFStructure`), a WebP with two frames or more (`WebPStructure`). When the bytes
/// are only a prefix and end before a second frame could be seen, a GIF's loop extension or a
/// WebP's animation flag stands in for it; for a whole file the claim alone never badges (a
/// one-frame GIF with a loop block, as ffmpeg writes, a 44-byte GIF with no image, a flagged
/// WebP with no frames). APNG and AVIF sequences (`ImageSequence`) count too: the gallery
/// plays them through ffmpeg, as Debian 12's libvips reads one picture of each.
///
/// - Complexity: that of the GIF, WebP or PNG walk: O(blocks or chunks), each bounded.
package enum AnimatedImage {
  package static func isAnimated(_ bytes: [UInt8], isWholeFile: Bool = false) -> Bool {
    if let gif = GIFStructure(bytes) { return gif.isAnimated(isWholeFile: isWholeFile) }
    if let webp = WebPStructure(bytes) { return webp.isAnimated(isWholeFile: isWholeFile) }
    return ImageSequence(bytes) != nil
  }
}
