// The format table's parsers, each fed hostile bytes.
import Foundation

extension FuzzHarnesses {
  static let moduleHarnesses: [String: @Sendable (UnsafeRawBufferPointer) -> Void] = [
    // Any bytes as the PNG the decoder is given: a stripped file is shorter, starts with the
    // signature, walks chunk by chunk to its end and holds no text chunk; stripping it again
    // finds nothing to leave out.
    "png-text-strip": { bytes in
      let data = Data(bytes)
      guard let stripped = PNGTextStrip.strippingText(data) else { return }
      precondition(stripped.count < data.count && stripped.starts(with: data.prefix(8)))
      let out = [UInt8](stripped)
      var offset = 8
      while offset < out.count {
        precondition(out.count - offset >= 12)
        let length = out[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        let kind = String(decoding: out[offset + 4..<offset + 8], as: UTF8.self)
        precondition(!["tEXt", "zTXt", "iTXt"].contains(kind))
        precondition(length <= out.count - offset - 12)
        offset += 12 + length
      }
      precondition(PNGTextStrip.strippingText(stripped) == nil)
    },
    // Any bytes as a RAW file (RawPreviewLocator): every read asked for lies inside the file,
    // all reads together stay within the budget, and a preview found starts with SOI, lies
    // wholly inside the file and has a frame size and an orientation of 1…8. Then the same
    // bytes at the start of a sparse 1 TiB file (zeros after them): offsets far past the
    // bytes a fuzzer makes, the same rules.
    "raw-preview": { bytes in
      let data = [UInt8](bytes)
      for size in [data.count, 1 << 40] {
        var reads = 0
        var total = 0
        let found = try? RawPreviewLocator.largestPreview(fileSize: size) { offset, count in
          precondition(offset >= 0 && count >= 0 && count <= size - offset)
          reads += 1
          total += count
          let end = offset + count
          guard offset < data.count else { return [UInt8](repeating: 0, count: count) }
          let zeros = max(0, end - data.count)
          return Array(data[offset..<min(end, data.count)]) + [UInt8](repeating: 0, count: zeros)
        }
        precondition(reads <= RawByteReader.maxReads && total <= RawByteReader.maxBytes)
        guard let found else { continue }
        precondition(found.offset >= 0 && found.length >= 4 && found.length <= size - found.offset)
        precondition(found.offset < data.count - 1)  // zeros are no SOI
        precondition(data[found.offset] == 0xFF && data[found.offset + 1] == 0xD8)
        precondition((1...8).contains(found.orientation))
        precondition((found.width ?? 0) > 0 && (found.height ?? 0) > 0)
      }
    },
    // Any bytes as a JPEG's first 64 bytes and the rest of its file (JPEGHeaderGathering):
    // every read asked for lies inside the file, at most three a step (its start, a peek, the
    // whole segment) within the bound on steps, and what is gathered is a JPEG whose segments
    // the header walk reads to a frame header.
    "jpeg-gathering": { bytes in
      let data = [UInt8](bytes)
      var reads = 0
      let gathered = JPEGHeaderGathering.gather(
        head: Array(data.prefix(64)), fileSize: data.count
      ) { offset, count in
        precondition(offset >= 0 && count >= 0 && count <= data.count - offset)
        reads += 1
        return Array(data[offset..<offset + count])
      }
      precondition(reads <= 3 * JPEGHeaderSegments.maxSegments)
      guard let gathered else { return }
      precondition(gathered.starts(with: [0xFF, 0xD8]))
      precondition(JPEGHeaderSegments(gathered).contains { $0.isFrameHeader })
    },
    // Any bytes as a GIF (GIFStructure): at most maxBlocks frames, a shown size never larger
    // than the screen, and a whole file is animated only by two frames or more.
    "gif-structure": { bytes in
      guard let gif = GIFStructure([UInt8](bytes)) else { return }
      precondition(gif.frames.count <= gif.images && gif.images <= GIFStructure.maxBlocks)
      let shown = gif.shownSize
      precondition(shown.width <= gif.screenWidth && shown.height <= gif.screenHeight)
      precondition(gif.isAnimated(isWholeFile: true) == (gif.images >= 2))
    },
    // Any bytes as an APNG or ISO image sequence (ImageSequence): counts within the
    // specification's 31 bits, and what is one is an animation.
    "image-sequence": { bytes in
      // A PNG signature first half the time, so the fuzzer spends its time in the chunks.
      var input = [UInt8](bytes)
      if input.first.map({ $0 & 1 == 1 }) == true {
        input = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + input.dropFirst()
      }
      guard let sequence = ImageSequence(input) else { return }
      precondition(sequence.plays >= 0 && sequence.plays <= Int(Int32.max))
      switch sequence.kind {
      case .apng: precondition((sequence.announcedFrames ?? 0) >= 2)
      case .isoSequence: precondition(sequence.announcedFrames == nil && sequence.plays == 0)
      }
      precondition(AnimatedImage.isAnimated(input))
    },
    // Any bytes as a WebP (WebPStructure): at most maxChunks frames, and a whole file is
    // animated only by two frames or more.
    "webp-structure": { bytes in
      guard let webp = WebPStructure([UInt8](bytes)) else { return }
      precondition(webp.frames <= WebPStructure.maxChunks)
      precondition(webp.isAnimated(isWholeFile: true) == (webp.frames >= 2))
    },
    // Any bytes as an XMP packet (XMPPacket, Exempi): one parsed was within the limits
    // (size, nesting) before the toolkit saw it, and answers every property read; what a
    // culling tool wrote in it is read within its bounds (a rating −1…5, texts cut).
    "xmp-packet": { bytes in
      let data = [UInt8](bytes)
      guard let packet = XMPPacket(data) else { return }
      let end = PacketEnd.offset(in: data.prefix(XMPPacket.maxPacketBytes + 1))
      precondition(end <= XMPPacket.maxPacketBytes)
      precondition(XMPPacket.nestingDepth(Array(data.prefix(end))) <= XMPPacket.maxDepth)
      for namespace in [XMPPacket.Namespace.exif, .photoshop, .xmp] {
        for name in ["DateTimeOriginal", "DateCreated", "CreateDate", "Rating"] {
          _ = packet.property(namespace, name)
        }
      }
      let culling = XMPCulling(packet)
      if let rating = culling.rating { precondition((-1...5).contains(rating)) }
      let texts =
        culling.keywords + culling.tagPaths.joined() + [culling.title].compactMap { $0 }
      precondition(texts.allSatisfy { $0.unicodeScalars.count <= XMPCulling.maxTextScalars })
      precondition(culling.keywords.count <= XMPPacket.maxArrayItems)
    },
  ]
}
