import TesseraUtilities

/// A motion photo: a JPEG with a short MP4 appended after its image, announced in its XMP.
/// Google's cameras wrote `GCamera:MicroVideo="1"` with `GCamera:MicroVideoOffset`, the
/// video's distance from the file's end; since 2021 they (and Samsung's) write a
/// `Container:Directory` whose item of `Item:Semantic="MotionPhoto"` has the video's
/// `Item:Length`, the items after the primary image lying end to end up to the file's end.
///
/// The claim is from outside: a range that does not lie inside the file, after at least the
/// JPEG's first bytes, is ignored. Only the XMP packet the header read already has is looked
/// at, and Exempi parses it only when its bytes name `MicroVideo` or `MotionPhoto`.
///
/// - Complexity: O(packet bytes) for the look, O(properties) for a packet parsed; at most
///   ``maxItems`` directory items.
package enum JPEGMotionPhoto {
  /// Directory items looked at; a motion photo has two or three.
  package static let maxItems = 16
  /// The fewest bytes of JPEG before the video: SOI, a frame header and an EOI at least.
  package static let minImageBytes = 16

  private static let hints = [Array("MicroVideo".utf8), Array("MotionPhoto".utf8)]

  /// Where the video of the JPEG whose header is `bytes` lies in its file of `fileSize`
  /// bytes; nil for a JPEG that announces none, or announces one outside the file.
  package static func videoRange(inJPEG bytes: [UInt8], fileSize: Int) -> Range<Int>? {
    guard ImageSignature(sniffing: bytes) == .jpeg, let xmp = JPEGMetadataSegments(bytes).xmp
    else { return nil }
    return videoRange(xmp: xmp, fileSize: fileSize)
  }

  /// Where the video that the XMP packet `xmp` announces lies in a file of `fileSize` bytes.
  package static func videoRange(xmp: [UInt8], fileSize: Int) -> Range<Int>? {
    guard fileSize > minImageBytes,
      hints.contains(where: { PacketEnd.firstRange(of: $0, in: xmp[...]) != nil }),
      let packet = XMPPacket(xmp)
    else { return nil }
    if let range = containerRange(packet, fileSize: fileSize) { return range }
    guard packet.property(.googleCamera, "MicroVideo") == "1",
      let offset = packet.property(.googleCamera, "MicroVideoOffset").flatMap(number)
    else { return nil }
    return validated(start: fileSize - offset, length: offset, fileSize: fileSize)
  }

  /// The `MotionPhoto` item of a `Container:Directory`: its length, and those of the items
  /// after it (with their padding), counted back from the file's end.
  private static func containerRange(_ packet: XMPPacket, fileSize: Int) -> Range<Int>? {
    var items: [(semantic: String?, length: Int?, padding: Int)] = []
    for index in 1...maxItems {
      let item = "Directory[\(index)]/Container:Item/Item:"
      let semantic = packet.property(.googleContainer, item + "Semantic")
      let length = packet.property(.googleContainer, item + "Length")
      guard semantic != nil || length != nil else { break }
      items.append(
        (
          semantic, length.flatMap(number),
          packet.property(.googleContainer, item + "Padding").flatMap(number) ?? 0
        ))
    }
    // The motion item and every one after it need a length: without one, no place is known.
    guard let motion = items.firstIndex(where: { $0.semantic == "MotionPhoto" }),
      motion > 0, let length = items[motion].length, length > 0
    else { return nil }
    var after = 0
    for item in items[(motion + 1)...] {
      guard let itemLength = item.length else { return nil }
      after = after.addingClamped(itemLength).addingClamped(item.padding)
    }
    return validated(
      start: fileSize - after.addingClamped(length), length: length, fileSize: fileSize)
  }

  /// `start..<start + length` when it lies in the file after ``minImageBytes``; else nil.
  package static func validated(start: Int, length: Int, fileSize: Int) -> Range<Int>? {
    guard length > 0, start >= minImageBytes, start < fileSize, length <= fileSize - start
    else { return nil }
    return start..<start + length
  }

  /// A decimal number of at most 18 digits (no sign, no space); nil otherwise.
  private static func number(_ text: String) -> Int? {
    guard (1...18).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) })
    else { return nil }
    return Int(text)
  }
}

extension Int {
  /// `self + other`, at `Int.max` when it would overflow (both are never negative here).
  fileprivate func addingClamped(_ other: Int) -> Int {
    let (sum, overflow) = addingReportingOverflow(other)
    return overflow ? .max : sum
  }
}
