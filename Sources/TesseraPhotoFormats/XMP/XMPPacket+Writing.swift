import CExempi

/// Changing a packet and writing it out, as a culling tool's sidecar is updated: only the
/// properties set or deleted change; every other one — another tool's history, develop
/// settings, face regions — is serialized from the toolkit's tree as it was parsed.
extension XMPPacket {
  /// Sets the simple property `name` in `namespace` to `value`; false when the toolkit
  /// refuses (a name that is not an XML name). O(properties).
  @discardableResult
  package func set(_ namespace: Namespace, _ name: String, to value: String) -> Bool {
    Self.toolkit.withLock { _ in xmp_set_property(packet, namespace.rawValue, name, value, 0) }
  }

  /// Sets the default language's text of the language alternative `name` in `namespace` (as
  /// `dc:title` is kept), made when absent; false when the toolkit refuses. O(properties).
  @discardableResult
  package func setLocalizedText(_ namespace: Namespace, _ name: String, to value: String) -> Bool {
    Self.toolkit.withLock { _ in
      xmp_set_localized_text(packet, namespace.rawValue, name, "", "x-default", value, 0)
    }
  }

  /// Removes `name` in `namespace`, when present. O(properties).
  package func delete(_ namespace: Namespace, _ name: String) {
    Self.toolkit.withLock { _ in _ = xmp_delete_property(packet, namespace.rawValue, name) }
  }

  /// Adds `value` to the array `name` in `namespace`, unless an item already says it; an
  /// absent array is made, ordered (`rdf:Seq`, as digiKam writes `TagsList`) or not
  /// (`rdf:Bag`, as `dc:subject` is); an existing one keeps its form. O(items).
  @discardableResult
  package func addItem(
    _ namespace: Namespace, _ name: String, _ value: String, ordered: Bool = false
  ) -> Bool {
    guard !items(namespace, name).contains(value) else { return true }
    return Self.toolkit.withLock { _ in
      var options: UInt32 = 0
      // The toolkit refuses a form given for an array that has one.
      let exists = xmp_get_property(packet, namespace.rawValue, name, nil, &options)
      let form =
        exists
        ? 0
        : UInt32(XMP_PROP_VALUE_IS_ARRAY.rawValue)
          | (ordered ? UInt32(XMP_PROP_ARRAY_IS_ORDERED.rawValue) : 0)
      return xmp_append_array_item(packet, namespace.rawValue, name, form, value, 0)
    }
  }

  /// Removes every item of the array `name` in `namespace` that says `value`; the array
  /// goes when it is left empty. O(items).
  package func removeItem(_ namespace: Namespace, _ name: String, _ value: String) {
    Self.toolkit.withLock { _ in
      guard let text = xmp_string_new() else { return }
      defer { xmp_string_free(text) }
      var matching: [Int32] = []
      var count: Int32 = 0
      // The toolkit counts items from 1; a structure among them is counted, never matched.
      for index in 1...Int32(Self.maxArrayItems) {
        var options: UInt32 = 0
        guard xmp_get_array_item(packet, namespace.rawValue, name, index, text, &options)
        else { break }
        count = index
        if options & UInt32(XMP_PROP_COMPOSITE_MASK.rawValue) == 0,
          let item = xmp_string_cstr(text), String(cString: item) == value
        {
          matching.append(index)
        }
      }
      guard !matching.isEmpty else { return }
      if matching.count == count {
        _ = xmp_delete_property(packet, namespace.rawValue, name)
        return
      }
      // Last first: an item's number is its place.
      for index in matching.reversed() {
        _ = xmp_delete_property(packet, namespace.rawValue, "\(name)[\(index)]")
      }
    }
  }

  /// The array `name` in `namespace` made to hold exactly `values` (none: removed), as an
  /// undo puts it back. O(items).
  package func setItems(
    _ namespace: Namespace, _ name: String, to values: [String], ordered: Bool = false
  ) {
    delete(namespace, name)
    for value in values { addItem(namespace, name, value, ordered: ordered) }
  }

  /// The packet as a sidecar file holds it: an XML declaration and the `x:xmpmeta` element,
  /// UTF-8, without the `<?xpacket?>` wrapper and padding a file's embedded packet needs (as
  /// darktable and digiKam write sidecars). Nil when the toolkit cannot serialize it.
  /// O(properties).
  package func sidecarBytes() -> [UInt8]? {
    Self.toolkit.withLock { _ -> [UInt8]? in
      guard let buffer = xmp_string_new() else { return nil }
      defer { xmp_string_free(buffer) }
      let options = UInt32(XMP_SERIAL_OMITPACKETWRAPPER)
      guard xmp_serialize(packet, buffer, options, 0), let text = xmp_string_cstr(buffer) else {
        return nil
      }
      return Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n".utf8)
        + Array(String(cString: text).utf8)
    }
  }
}
