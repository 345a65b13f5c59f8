import Foundation

/// Motion photos made by hand: a JPEG with an XMP packet announcing an appended video, as
/// Google's and Samsung's cameras write them, and the video's bytes after the image.
package enum MotionPhotoFixtures {
  /// `xmlns:` attributes for Google's camera, container and item namespaces.
  package static let declarations = """
    xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" \
    xmlns:Container="http://ns.google.com/photos/1.0/container/" \
    xmlns:Item="http://ns.google.com/photos/1.0/container/item/"
    """

  /// An older Pixel's packet: `GCamera:MicroVideo` and the video's distance from the end.
  package static func microVideo(offset: String, flag: String = "1") -> [UInt8] {
    XMPNamespaces.packet(
      attributes: declarations
        + " GCamera:MicroVideo=\"\(flag)\" GCamera:MicroVideoVersion=\"1\""
        + " GCamera:MicroVideoOffset=\"\(offset)\"")
  }

  /// A `Container:Directory` of `items` (semantic, length, padding), after the primary image.
  package static func container(
    _ items: [(semantic: String, length: String, padding: String)]
  )
    -> [UInt8]
  {
    let primary = [("Primary", "0", "0")]
    let listed = (primary + items).map { item in
      """
      <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="video/mp4" \
      Item:Semantic="\(item.0)" Item:Length="\(item.1)" Item:Padding="\(item.2)"/></rdf:li>
      """
    }
    return XMPNamespaces.packet(
      attributes: declarations + " GCamera:MotionPhoto=\"1\" GCamera:MotionPhotoVersion=\"1\"",
      elements: "<Container:Directory><rdf:Seq>\(listed.joined())</rdf:Seq></Container:Directory>")
  }

  /// `jpeg` (a whole JPEG file) with an APP1 segment of `xmp` right after its SOI.
  package static func withXMP(_ jpeg: [UInt8], _ xmp: [UInt8]) -> [UInt8] {
    let payload = Array("http://ns.adobe.com/xap/1.0/\0".utf8) + xmp
    let length = payload.count + 2
    precondition(length <= 0xFFFF && jpeg.starts(with: [0xFF, 0xD8]))
    return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
      + jpeg.dropFirst(2)
  }

  /// The smallest JPEG header a reader walks: SOI, an 8-bit 640×480 frame header of one
  /// component, and EOI (no picture: the header reader needs none).
  package static let bareJPEG: [UInt8] = [
    0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x01, 0xE0, 0x02, 0x80, 0x01, 0x01, 0x11, 0x00,
    0xFF, 0xD9,
  ]
}
