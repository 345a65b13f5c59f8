import Foundation

/// The namespace declarations a test's hand-made XMP packet needs, as every writer makes them
/// (a packet whose prefixes are not declared is not XML, and no XMP reader takes it).
package enum XMPNamespaces {
  /// `xmlns:` attributes for `exif:`, `photoshop:`, `xmp:`, `xap:` (xmp's namespace under its
  /// old prefix) and `dc:`, to put on an `rdf:Description`.
  package static let declarations = """
    xmlns:exif="http://ns.adobe.com/exif/1.0/" \
    xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" \
    xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:xap="http://ns.adobe.com/xap/1.0/" \
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    """

  /// A whole packet around `description`'s properties and elements (attributes first).
  package static func packet(attributes: String = "", elements: String = "") -> [UInt8] {
    Array(
      """
      <?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">
      <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description rdf:about="" \(declarations) \(attributes)>\(elements)</rdf:Description>
      </rdf:RDF></x:xmpmeta><?xpacket end="w"?>
      """.utf8)
  }
}

/// Debian's exiftool (libimage-exiftool-perl), the reference reader and writer of XMP that
/// the interop tests check Tessera against.
package enum ExifTool {
  /// Runs exiftool with `arguments`; its standard output. Throws when it exits non-zero.
  @discardableResult
  package static func run(_ arguments: [String]) throws -> String {
    try ExternalTool.run("/usr/bin/exiftool", arguments)
  }
}

/// Debian's exiv2, the library darktable and digiKam read and write XMP with, as a command.
package enum Exiv2 {
  /// Runs exiv2 with `arguments`; its standard output. Throws when it exits non-zero.
  @discardableResult
  package static func run(_ arguments: [String]) throws -> String {
    try ExternalTool.run("/usr/bin/exiv2", arguments)
  }
}

/// Another program a test checks Tessera's files against.
package enum ExternalTool {
  package struct Failed: Error, CustomStringConvertible {
    package var description: String
  }

  /// Runs `executable` with `arguments`; its standard output and error. Throws when it exits
  /// non-zero. Waits for it, so nothing is left running.
  package static func run(_ executable: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw Failed(
        description: "\(executable) \(arguments) exited \(process.terminationStatus): \(text)")
    }
    return text
  }
}
