/// Where an XMP packet's bytes end: after its trailer `<?xpacket end=…?>`, else after the last
/// `</x:xmpmeta>`, else after the last `</rdf:RDF>`; else all of them. What follows the end is
/// padding, or what a container's lying length took in (a TIFF entry that claims a megabyte
/// more than its packet), and would make the XML unreadable.
///
/// - Complexity: O(bytes) per marker looked for, three at most.
enum PacketEnd {
  static func offset(in bytes: ArraySlice<UInt8>) -> Int {
    let trailer = Array("<?xpacket end=".utf8)
    if let start = firstRange(of: trailer, in: bytes),
      let close = firstRange(of: Array("?>".utf8), in: bytes[start.upperBound...])
    {
      return close.upperBound - bytes.startIndex
    }
    for closing in ["</x:xmpmeta>", "</rdf:RDF>"] {
      if let found = lastRange(of: Array(closing.utf8), in: bytes) {
        return found.upperBound - bytes.startIndex
      }
    }
    return bytes.count
  }

  /// The first occurrence of `needle` in `bytes`.
  static func firstRange(of needle: [UInt8], in bytes: ArraySlice<UInt8>) -> Range<Int>? {
    guard let first = needle.first, bytes.count >= needle.count else { return nil }
    var index = bytes.startIndex
    while index <= bytes.endIndex - needle.count {
      if bytes[index] == first, bytes[index..<index + needle.count].elementsEqual(needle) {
        return index..<index + needle.count
      }
      index += 1
    }
    return nil
  }

  /// The last occurrence of `needle` in `bytes`.
  static func lastRange(of needle: [UInt8], in bytes: ArraySlice<UInt8>) -> Range<Int>? {
    guard let first = needle.first, bytes.count >= needle.count else { return nil }
    var index = bytes.endIndex - needle.count
    while index >= bytes.startIndex {
      if bytes[index] == first, bytes[index..<index + needle.count].elementsEqual(needle) {
        return index..<index + needle.count
      }
      index -= 1
    }
    return nil
  }
}
