import Foundation
import TesseraTestSupport
import Testing

/// `tessera serve` as a person runs it: the URL on its first line, a feed and an image over
/// real HTTP, and a clean stop on Ctrl-C.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ServeEndToEndTests {
  @Test func servesTheFeedAndAnImageThenStopsOnInterrupt() async throws {
    let script =
      // The shell traps INT (so it lives to report the exit status); the server, exec'd with
      // the default disposition, gets Ctrl-C itself.
      "trap 'true' INT; \(Tmux.quote(GalleryBinary.path)) serve --port 0 --items 30; "
      + "echo \"exit=$?\"; exec sleep 600"
    let tmux = try Tmux(command: ["sh", "-c", script], columns: 120, rows: 20)
    let screen = try tmux.waitFor("the URL") { Tmux.plain($0).contains("http://127.0.0.1:") }
    let firstLine = Tmux.plain(screen).split(separator: "\n").first.map(String.init) ?? ""
    #expect(firstLine.hasPrefix("http://127.0.0.1:"), "first line: \(firstLine)")
    let base = try #require(URL(string: firstLine.trimmingCharacters(in: .whitespaces)))

    let feedURL = try #require(
      URL(
        string: "services/feeds/photos_public.gne?format=json&nojsoncallback=1", relativeTo: base))
    let feedAnswer = try await TestHTTP.get(feedURL)
    #expect(feedAnswer.status == 200)
    let feed = feedAnswer.body
    let text = String(decoding: feed, as: UTF8.self)
    #expect(text.contains("\"items\""))
    // The image lives in the item's "media": {"m": URL}, slashes escaped as Flickr does.
    let media = try #require(text.range(of: #""m":"[^"]+""#, options: .regularExpression))
    let mediaURL = text[media].dropFirst(5).dropLast().replacingOccurrences(of: "\\/", with: "/")
    let imageURL = try #require(URL(string: mediaURL))
    let imageAnswer = try await TestHTTP.get(imageURL)
    #expect(imageAnswer.status == 200)
    #expect((imageAnswer.header("Content-Type") ?? "").hasPrefix("image/"))
    let image = imageAnswer.body
    #expect(image.count > 100)

    // Numbers near Int.max in the query once trapped `(page - 1) * perPage` and killed the
    // server: they must get an answer, and the server must go on serving.
    for query in [
      "page=9223372036854775807&per_page=9223372036854775807", "page=-9223372036854775808",
      "page=99999999999999999999999999&per_page=0",
    ] {
      let hostile = try #require(
        URL(string: "services/feeds/photos_public.gne?format=json&\(query)", relativeTo: base))
      let status = try await TestHTTP.get(hostile).status
      #expect((200..<500).contains(status), "\(query) → HTTP \(status)")
    }
    let again = try await TestHTTP.get(feedURL)
    #expect(again.status == 200, "the server stopped serving")

    try tmux.send("C-c")
    let after = try tmux.waitFor("the exit") { Tmux.plain($0).contains("exit=") }
    #expect(Tmux.plain(after).contains("exit=0"))
  }
}
