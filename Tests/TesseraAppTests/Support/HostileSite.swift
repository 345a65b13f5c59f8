import Foundation
import TesseraTestSupport

/// A web site we do not control, written by the tests: a Flickr-format feed whose items point
/// at the kinds of hostile input a real server can send (a local file, an SVG and a PDF served
/// as JPEG, a 1×65,535 needle, absurd claimed sizes, bidi overrides, wide captions), and a feed
/// larger than the 8 MiB cap. Served as static files by Python's `http.server` on 127.0.0.1,
/// inside its own tmux server so it is stopped with the test, pass or fail.
final class HostileSite {
  let folder: URL
  private let server: Tmux
  let base: String

  /// The items, in feed order, with what a person must see for each.
  static let titles = (
    plain: "Plain harbour", absurd: "Absurd size", local: "Local secret",
    vector: "Vector trap", document: "Document trap", needle: "Needle",
    bidi: "\u{202E}gpj.exe", wide: String(repeating: "東京の夜景", count: 8)
  )

  init() throws {
    folder = TemporaryFolder.make(prefix: "tessera-hostile")
    let images = folder.appendingPathComponent("img")
    try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
    try Self.writeImages(into: images)
    let portFile = folder.appendingPathComponent("port").path
    let script = """
      import http.server, socketserver, sys
      class Quiet(http.server.SimpleHTTPRequestHandler):
          def log_message(self, *args): pass
      http.server.ThreadingHTTPServer.allow_reuse_address = True
      with http.server.ThreadingHTTPServer(("127.0.0.1", 0), \
      lambda *a: Quiet(*a, directory=sys.argv[1])) as httpd:
          open(sys.argv[2] + ".tmp", "w").write(str(httpd.server_address[1]))
          import os; os.rename(sys.argv[2] + ".tmp", sys.argv[2])
          httpd.serve_forever()
      """
    try script.write(
      to: folder.appendingPathComponent("serve.py"), atomically: true, encoding: .utf8)
    server = try Tmux(
      command: ["python3", folder.appendingPathComponent("serve.py").path, folder.path, portFile],
      columns: 80, rows: 10)
    let deadline = ContinuousClock.now + .seconds(30)
    var port = ""
    while ContinuousClock.now < deadline {
      port = (try? String(contentsOfFile: portFile, encoding: .utf8)) ?? ""
      if !port.isEmpty { break }
      Thread.sleep(forTimeInterval: 0.05)
    }
    guard !port.isEmpty else { throw Tmux.Failure(description: "the hostile site did not start") }
    base = "http://127.0.0.1:\(port)"
    try writeFeeds()
  }

  deinit {
    try? FileManager.default.removeItem(at: folder)
  }

  var feedURL: String { "\(base)/feed.json" }
  var hugeFeedURL: String { "\(base)/huge.json" }

  /// Every Flickr size suffix the gallery may ask for, so any tile size finds its file.
  private static let suffixes = ["s", "q", "t", "m", "n", "w", "", "z", "c", "b"]

  private static func writeImages(into folder: URL) throws {
    // Real image bytes come from libvips' command-line tool, as any server would make them.
    let work = folder.deletingLastPathComponent()
    let jpeg = work.appendingPathComponent("plain.jpg").path
    let needle = work.appendingPathComponent("needle.png").path
    for command in [
      ["vips", "gaussnoise", jpeg, "320", "240"],
      ["vips", "black", needle, "1", "65535"],
    ] {
      let result = try Spawn.run(command)
      guard result.status == 0 else {
        throw Tmux.Failure(description: "\(command.joined(separator: " ")): \(result.output)")
      }
    }
    let files: [String: Data] = [
      "plain": try Data(contentsOf: URL(fileURLWithPath: jpeg)),
      "absurd": try Data(contentsOf: URL(fileURLWithPath: jpeg)),
      "vector": TestImages.svg(width: 64, height: 64),
      "document": TestImages.pdf(width: 64, height: 64),
      "needle": try Data(contentsOf: URL(fileURLWithPath: needle)),
      "bidi": try Data(contentsOf: URL(fileURLWithPath: jpeg)),
      "wide": try Data(contentsOf: URL(fileURLWithPath: jpeg)),
    ]
    for (name, data) in files {
      for suffix in suffixes {
        let file = suffix.isEmpty ? "\(name).jpg" : "\(name)_\(suffix).jpg"
        try data.write(to: folder.appendingPathComponent(file))
      }
    }
  }

  private func item(
    _ title: String, media: String, width: String = "240", height: String = "160"
  ) -> String {
    let escapedTitle = title.unicodeScalars.map { scalar in
      scalar.isASCII ? String(scalar) : String(format: "\\u%04X", scalar.value)
    }.joined()
    return """
      {"title": "\(escapedTitle)", "link": "https://example.org/p/\(abs(title.hashValue))/",
       "media": {"m": "\(media)"}, "date_taken": "2024-05-01T10:12:33-08:00",
       "description": "<p><img src=\\"\(media)\\" width=\\"\(width)\\" height=\\"\(height)\\" /></p>",
       "published": "2024-05-01T18:20:01Z", "author": "nobody@flickr.com (\\"Mallory\\")",
       "author_id": "666@N00", "tags": "hostile"}
      """
  }

  private func writeFeeds() throws {
    let titles = Self.titles
    let items = [
      item(titles.plain, media: "\(base)/img/plain_m.jpg"),
      item(
        titles.absurd, media: "\(base)/img/absurd_m.jpg", width: "99999999999999999999999999",
        height: "1"),
      item(titles.local, media: "file:///etc/passwd"),
      item(titles.vector, media: "\(base)/img/vector_m.jpg"),
      item(titles.document, media: "\(base)/img/document_m.jpg"),
      item(titles.needle, media: "\(base)/img/needle_m.jpg", width: "1", height: "65535"),
      item(titles.bidi, media: "\(base)/img/bidi_m.jpg"),
      item(titles.wide, media: "\(base)/img/wide_m.jpg"),
    ]
    let feed = """
      {"title": "Hostile uploads", "link": "https://example.org/", "description": "",
       "modified": "2024-05-01T18:20:01Z", "generator": "https://example.org",
       "items": [\(items.joined(separator: ",\n"))]}
      """
    try feed.write(
      to: folder.appendingPathComponent("feed.json"), atomically: true, encoding: .utf8)
    // 9 MiB: a valid start, then padding inside a string that never ends before the cap.
    var huge = Data(#"{"title": "Huge", "items": [], "description": ""#.utf8)
    huge.append(Data(repeating: UInt8(ascii: "a"), count: 9 << 20))
    huge.append(Data(#""}"#.utf8))
    try huge.write(to: folder.appendingPathComponent("huge.json"))
  }
}
