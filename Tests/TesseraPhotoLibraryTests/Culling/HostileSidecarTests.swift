import Foundation
import TesseraPhotoFormats
import TesseraTestSupport
import TesseraUtilities
import Testing

@testable import TesseraPhotoLibrary

/// A sidecar made to hurt its reader, beside a photo the walk lists: the walk reads it as it
/// reads every sidecar (`header(ofFileAt:sidecar:)`, through `culling(ofSidecarAt:)`), in
/// bounded time, and the photo is still listed with its own header. Each hostile sidecar
/// also says rating 5, label Red and a tag, so a reader that let any of it through shows.
/// The suite's time limit is the bound: a reader that expanded or recursed without end fails.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct HostileSidecarTests {
  /// What a sidecar the reader took would say.
  static let claims = #"xmp:Rating="5" xmp:Label="Red""#
  static let tag = "<dc:subject><rdf:Bag><rdf:li>stolen</rdf:li></rdf:Bag></dc:subject>"

  /// Walks a folder of `IMG_1.jpg` (16 × 16) and its sidecar `IMG_1.jpg.xmp`, made by
  /// `write`; the photos listed, by name, with their headers.
  func walk(sidecar write: (String) throws -> Void) async throws -> [String: PhotoHeader?] {
    let folder = TemporaryFolder.make(prefix: "tessera-hostile")
    defer { try? FileManager.default.removeItem(at: folder) }
    do {
      let pixels = [UInt8](repeating: 128, count: 16 * 16 * 4)
      let jpeg = try #require(JPEGWriter.encode(rgba: pixels, width: 16, height: 16, quality: 80))
      try Data(jpeg).write(to: folder.appendingPathComponent("IMG_1.jpg"))
      try write(folder.appendingPathComponent("IMG_1.jpg.xmp").path)
      let library = PhotoLibrary(walker: FolderWalker(roots: [folder.path]))
      let observer = LibraryObserver(library)
      await library.start()
      await observer.wait {
        library.progress.walkFinished && library.progress.headersRead >= library.count
      }
      var headers: [String: PhotoHeader?] = [:]
      for photo in library.allPhotos { headers[photo.file.name] = photo.header }
      return headers
    }
  }

  /// The photo is listed, its own header read (the JPEG's size), and nothing of the sidecar.
  func expectListedWithoutCulling(_ headers: [String: PhotoHeader?]) {
    #expect(Array(headers.keys) == ["IMG_1.jpg"], "\(headers)")
    let header = headers["IMG_1.jpg"] ?? nil
    #expect(
      header?.pixelSize?.width == 16 && header?.pixelSize?.height == 16,
      "\(String(describing: header))")
    #expect(header?.culling == nil, "\(String(describing: header))")
    #expect(header?.rating == nil)
  }

  /// Entities nested twelve deep, ten each: 10¹² "ha"s if expanded. Expat, under the
  /// toolkit, refuses the amplification and the packet is not parsed at all.
  @Test func aBillionLaughsIsRefused() async throws {
    var laughs = #"<?xml version="1.0"?><!DOCTYPE x [<!ENTITY l0 "ha">"#
    for level in 1...12 {
      laughs += "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">"
    }
    laughs += #"]><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF "#
    laughs += #"xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description "#
    laughs += #"rdf:about="" "# + XMPNamespaces.declarations + " \(Self.claims) "
    laughs += #"dc:format="&l12;">"# + Self.tag + "</rdf:Description></rdf:RDF></x:xmpmeta>"
    let headers = try await walk { path in
      try Data(laughs.utf8).write(to: URL(fileURLWithPath: path))
      #expect(LocalPhotoHeaderReader().culling(ofSidecarAt: path) == nil)
    }
    expectListedWithoutCulling(headers)
  }

  /// 100,000 nested elements inside the description: over `XMPPacket.maxDepth`, refused by
  /// the depth check before the toolkit's recursive parser sees it.
  @Test func deepNestingIsRefused() async throws {
    let depth = 100_000
    let nested =
      "<dc:description>" + String(repeating: "<a>", count: depth)
      + String(repeating: "</a>", count: depth) + "</dc:description>"
    let packet = XMPNamespaces.packet(attributes: Self.claims, elements: Self.tag + nested)
    let headers = try await walk { path in
      try Data(packet).write(to: URL(fileURLWithPath: path))
      #expect(LocalPhotoHeaderReader().culling(ofSidecarAt: path) == nil)
    }
    expectListedWithoutCulling(headers)
  }

  /// A sidecar of 100 MB (sparse: nothing written past its first packet) whose first bytes
  /// are a whole packet saying rating 5: refused on its size, from `fstat`, before any read —
  /// a reader that took the first megabyte would find that packet and show 5 stars.
  @Test func aSidecarOverTheLimitIsRefusedUnread() async throws {
    let packet = XMPNamespaces.packet(attributes: Self.claims, elements: Self.tag)
    #expect(XMPPacket(packet).map { XMPCulling($0) }?.rating == 5)
    let headers = try await walk { path in
      try Data(packet).write(to: URL(fileURLWithPath: path))
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
      try handle.truncate(atOffset: 100 << 20)
      try handle.close()
      #expect(XMPPacket.maxPacketBytes < 100 << 20)
      let read = LocalFile.readPrefix(
        path: path, limit: XMPPacket.maxPacketBytes, maxFileSize: XMPPacket.maxPacketBytes)
      guard case .failure(.tooLarge(let limit)) = read else {
        Issue.record("a 100 MB sidecar read: \(read)")
        return
      }
      #expect(limit == XMPPacket.maxPacketBytes)
      #expect(LocalPhotoHeaderReader().culling(ofSidecarAt: path) == nil)
    }
    expectListedWithoutCulling(headers)
  }

  /// Bytes that are not UTF-8 in values: the toolkit (Adobe's parser under Exempi) takes
  /// each such byte as the Windows-1252 character it would be, so the packet is read, and
  /// what reaches Tessera is valid text. A rating of "\u{C3}(" is no number, so no rating; a
  /// label of valid text beside it is read; a tag with 0xFF reads as "ÿ" in it.
  @Test func invalidUTF8InValuesIsReadAsWindows1252() async throws {
    let packet =
      Array(
        #"<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" "#
          .utf8)
      + Array(XMPNamespaces.declarations.utf8) + Array(#" xmp:Label="Red" xmp:Rating=""#.utf8)
      + [0xC3, 0x28] + Array(#""><dc:subject><rdf:Bag><rdf:li>we"#.utf8) + [0xFF]
      + Array("d</rdf:li><rdf:li>".utf8) + [0xC3, 0x28]
      + Array("</rdf:li></rdf:Bag></dc:subject></rdf:Description></rdf:RDF></x:xmpmeta>".utf8)
      + Array(#"<?xpacket end="w"?>"#.utf8)
    #expect(String(validating: packet, as: UTF8.self) == nil)
    let expected = PhotoCulling(label: .red, tags: ["we\u{FF}d", "\u{C3}("])
    let headers = try await walk { path in
      try Data(packet).write(to: URL(fileURLWithPath: path))
      #expect(LocalPhotoHeaderReader().culling(ofSidecarAt: path) == expected)
    }
    #expect(Array(headers.keys) == ["IMG_1.jpg"], "\(headers)")
    let header = headers["IMG_1.jpg"] ?? nil
    #expect(header?.pixelSize?.width == 16 && header?.pixelSize?.height == 16)
    #expect(header?.culling == expected, "\(String(describing: header))")
    #expect(header?.rating == nil)
  }

  /// The same sidecar is never written: the toolkit would write each byte that is not UTF-8
  /// back as the character it read, changing another tool's bytes. The write is refused with
  /// the reason, and the file is left byte for byte as it was.
  @Test func aSidecarThatIsNotUTF8IsNeverRewritten() throws {
    let folder = TemporaryFolder.make(prefix: "tessera-sidecar-utf8")
    defer { try? FileManager.default.removeItem(at: folder) }
    do {
      let path = folder.appendingPathComponent("IMG_1.jpg.xmp").path
      let packet = XMPNamespaces.packet(attributes: #"xmp:Label="Red""#)
      var broken = packet
      // Inside the label's value: "R\u{FF}ed".
      let red = Array(#""Red""#.utf8)
      let at = try #require(
        (0...(broken.count - red.count)).first { Array(broken[$0..<$0 + red.count]) == red })
      broken.insert(0xFF, at: at + 2)
      #expect(String(validating: broken, as: UTF8.self) == nil)
      try Data(broken).write(to: URL(fileURLWithPath: path))
      do {
        _ = try SidecarWriter.apply(.rating(3), toSidecarAt: path)
        Issue.record("a sidecar that is not UTF-8 was written")
      } catch {
        #expect("\(error)".contains("not valid UTF-8"), "\(error)")
      }
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(broken))
      // The same packet in UTF-8 is written.
      try Data(packet).write(to: URL(fileURLWithPath: path))
      _ = try SidecarWriter.apply(.rating(3), toSidecarAt: path)
      #expect(LocalPhotoHeaderReader().culling(ofSidecarAt: path)?.rating == 3)
    }
  }
}
