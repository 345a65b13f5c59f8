import CExempi
import TesseraUtilities

/// An XMP packet parsed as the RDF/XML it is, by Exempi (Adobe's XMP Toolkit): properties are
/// found by namespace URI and name, written as attributes or elements, under any prefix, and
/// never in comments, in other properties' values or in another namespace's property of the
/// same name — what a scan of the text cannot promise.
///
/// Outside bytes are checked before the toolkit sees them: at most ``maxPacketBytes``, and
/// elements nested at most ``maxDepth`` deep (the toolkit's RDF parser recurses per level, and
/// photos are read on threads with small stacks). Expat, under the toolkit, refuses entity
/// expansion past its amplification limit (a "billion laughs" packet fails to parse). Every
/// call into the toolkit holds one process-wide lock: the toolkit's own thread safety is not
/// documented, and packets are read only for the few photos whose EXIF has no date.
///
/// - Complexity: parsing is O(bytes) after an O(bytes) depth check; a property read is
///   O(properties) in the toolkit's tree.
package final class XMPPacket: @unchecked Sendable {
  /// The largest packet parsed: a JPEG's APP1 holds at most 64 KiB; a TIFF's or PNG's packet
  /// with an editor's history may be larger, and is refused beyond this.
  package static let maxPacketBytes = 1 << 20
  /// The deepest element nesting parsed; real packets nest about ten deep.
  package static let maxDepth = 64

  /// Namespaces Tessera reads.
  package enum Namespace: String, Sendable {
    case exif = "http://ns.adobe.com/exif/1.0/"
    case photoshop = "http://ns.adobe.com/photoshop/1.0/"
    /// `xmp:` (written `xap:` by Adobe's writers until about 2008: the same URI).
    case xmp = "http://ns.adobe.com/xap/1.0/"
    /// Dublin Core: `dc:subject` (keywords), `dc:title`.
    case dublinCore = "http://purl.org/dc/elements/1.1/"
    /// Lightroom's `lr:hierarchicalSubject` ("Places|France|Paris").
    case lightroom = "http://ns.adobe.com/lightroom/1.0/"
    /// digiKam's `digiKam:TagsList` ("Places/France/Paris").
    case digiKam = "http://www.digikam.org/ns/1.0/"
    /// Google's camera namespace: `GCamera:MicroVideo`, `GCamera:MicroVideoOffset`.
    case googleCamera = "http://ns.google.com/photos/1.0/camera/"
    /// Google's container of a motion photo: `Container:Directory`, a sequence of items.
    case googleContainer = "http://ns.google.com/photos/1.0/container/"
    /// The fields of a `Container:Item`: `Item:Semantic`, `Item:Length`, `Item:Padding`.
    case googleContainerItem = "http://ns.google.com/photos/1.0/container/item/"
  }

  /// Items read from one array at most.
  package static let maxArrayItems = 1_000

  /// The toolkit, started once; the lock every call holds.
  static let toolkit = Locked<Bool>(startToolkit())

  /// Starts the toolkit and registers the namespaces it does not know of itself: asked for a
  /// property of an unregistered namespace, Exempi prints "Unregistered schema namespace URI"
  /// on standard error, which `tessera find` shares with its output's reader.
  private static func startToolkit() -> Bool {
    guard xmp_init() else { return false }
    let registered: [(Namespace, String)] = [
      (.lightroom, "lr"), (.digiKam, "digiKam"), (.googleCamera, "GCamera"),
      (.googleContainer, "Container"), (.googleContainerItem, "Item"),
    ]
    for (namespace, prefix) in registered {
      _ = xmp_register_namespace(namespace.rawValue, prefix, nil)
    }
    return true
  }

  let packet: XmpPtr

  /// A packet with no property: a new sidecar's.
  package init?() {
    let empty: XmpPtr? = Self.toolkit.withLock { started in started ? xmp_new_empty() : nil }
    guard let empty else { return nil }
    packet = empty
  }

  /// Parses `bytes` up to the packet's end (`PacketEnd`); nil when they are over the limits
  /// or are not an XMP packet.
  package init?(_ bytes: [UInt8]) {
    let bytes = Array(bytes.prefix(PacketEnd.offset(in: bytes.prefix(Self.maxPacketBytes + 1))))
    guard !bytes.isEmpty, bytes.count <= Self.maxPacketBytes,
      Self.nestingDepth(bytes) <= Self.maxDepth
    else { return nil }
    let parsed: XmpPtr? = Self.toolkit.withLock { started in
      guard started else { return nil }
      return bytes.withUnsafeBufferPointer { buffer in
        buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
          xmp_new($0, buffer.count)
        }
      }
    }
    guard let parsed else { return nil }
    packet = parsed
  }

  deinit {
    Self.toolkit.withLock { _ in _ = xmp_free(packet) }
  }

  /// The simple value of `name` in `namespace`, as the toolkit holds it; nil when absent (or
  /// not a simple value: an array or a structure).
  package func property(_ namespace: Namespace, _ name: String) -> String? {
    Self.toolkit.withLock { _ in
      guard let value = xmp_string_new() else { return nil }
      defer { xmp_string_free(value) }
      var options: UInt32 = 0
      guard xmp_get_property(packet, namespace.rawValue, name, value, &options),
        options & UInt32(XMP_PROP_COMPOSITE_MASK.rawValue) == 0,
        let text = xmp_string_cstr(value)
      else { return nil }
      return String(cString: text)
    }
  }

  /// The items of the array `name` in `namespace` (a bag, a sequence or an alternative), in
  /// order, at most ``maxArrayItems``; empty when absent or not an array.
  package func items(_ namespace: Namespace, _ name: String) -> [String] {
    Self.toolkit.withLock { _ in
      guard let value = xmp_string_new() else { return [] }
      defer { xmp_string_free(value) }
      var items: [String] = []
      // The toolkit counts array items from 1.
      for index in 1...Int32(Self.maxArrayItems) {
        var options: UInt32 = 0
        guard xmp_get_array_item(packet, namespace.rawValue, name, index, value, &options)
        else { break }
        guard options & UInt32(XMP_PROP_COMPOSITE_MASK.rawValue) == 0,
          let text = xmp_string_cstr(value)
        else { continue }
        items.append(String(cString: text))
      }
      return items
    }
  }

  /// The default-language value (`x-default`, else the first) of the language alternative
  /// `name` in `namespace`, as `dc:title` is written; nil when absent.
  package func localizedText(_ namespace: Namespace, _ name: String) -> String? {
    Self.toolkit.withLock { _ in
      guard let value = xmp_string_new() else { return nil }
      defer { xmp_string_free(value) }
      guard
        xmp_get_localized_text(packet, namespace.rawValue, name, "", "x-default", nil, value, nil),
        let text = xmp_string_cstr(value)
      else { return nil }
      return String(cString: text)
    }
  }

  /// How deep elements nest in `bytes`, counted from the markup alone: `<name` opens, `</` and
  /// `/>` close; comments (skipped whole), processing instructions and declarations (`<!`,
  /// `<?`) do neither.
  /// An overestimate at worst (a `/>` inside an attribute value is not a close), which only
  /// refuses a packet sooner.
  ///
  /// - Complexity: O(bytes).
  static func nestingDepth(_ bytes: [UInt8]) -> Int {
    var depth = 0
    var deepest = 0
    var index = 0
    let commentEnd = Array("-->".utf8)
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "<"), bytes[index...].starts(with: "<!--".utf8) {
        index =
          (PacketEnd.firstRange(of: commentEnd, in: bytes[(index + 4)...])?.upperBound)
          ?? bytes.count
        continue
      }
      if bytes[index] == UInt8(ascii: "<"), index + 1 < bytes.count {
        switch bytes[index + 1] {
        case UInt8(ascii: "/"): depth -= 1
        case UInt8(ascii: "!"), UInt8(ascii: "?"): break
        default:
          depth += 1
          deepest = max(deepest, depth)
        }
      } else if bytes[index] == UInt8(ascii: "/"), index + 1 < bytes.count,
        bytes[index + 1] == UInt8(ascii: ">")
      {
        depth -= 1
      }
      index += 1
    }
    return deepest
  }
}
