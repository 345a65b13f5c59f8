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

  /// Removes `name` in `namespace`, when present. O(properties).
  package func delete(_ namespace: Namespace, _ name: String) {
    Self.toolkit.withLock { _ in _ = xmp_delete_property(packet, namespace.rawValue, name) }
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
