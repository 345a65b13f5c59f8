import Foundation
import Testing

@testable import TesseraServer

/// Over real sockets (the peer is 127.0.0.1): every link of the feed and the users list
/// starts with the base `LinkOrigin` chose, and a cache is told what it depends on.
@Suite(.timeLimit(.minutes(1))) struct LinkRoutesTests {
  static let feed = "services/feeds/photos_public.gne?format=json&nojsoncallback=1"
  static let forwarded = [
    "Host": "origin.lan:8080", "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "photos.example", "X-Forwarded-Prefix": "/gallery",
  ]

  /// Every URL in the feed's JSON (`link`, `generator`, `media.m`, the description's href and
  /// img src), slashes unescaped.
  func urls(in body: Data) -> [String] {
    let text = String(decoding: body, as: UTF8.self).replacingOccurrences(of: "\\/", with: "/")
    let pattern = /https?:\/\/[^"\\ <>]+/
    return text.matches(of: pattern).map { String($0.output) }
  }

  func feed(
    _ links: LinkOrigin, headers: [String: String]
  ) async throws -> (urls: [String], vary: String?) {
    var configuration = FeedServer.Configuration.small()
    configuration.links = links
    return try await withLiveServer(configuration) { _, base in
      let answer = try await fetch(
        try #require(URL(string: Self.feed, relativeTo: base)), headers: headers)
      #expect(answer.status == 200)
      return (urls(in: answer.body), answer.header("Vary"))
    }
  }

  @Test func untrustedPeersForwardedHeadersAreIgnoredButHostIsUsed() async throws {
    let (urls, vary) = try await feed(LinkOrigin(), headers: Self.forwarded)
    #expect(urls.count > 20)
    #expect(urls.allSatisfy { $0.hasPrefix("http://origin.lan:8080/") }, "\(urls.prefix(3))")
    #expect(vary == "Host")
  }

  @Test func aTrustedProxysForwardedHeadersNameEveryLink() async throws {
    let links = LinkOrigin(trustedProxies: [try IPAddressRange(parsing: "127.0.0.0/8")])
    let (urls, vary) = try await feed(links, headers: Self.forwarded)
    #expect(urls.count > 20)
    #expect(
      urls.allSatisfy { $0.hasPrefix("https://photos.example/gallery/") }, "\(urls.prefix(3))")
    #expect(vary?.contains("X-Forwarded-Host") == true)
  }

  @Test func thePublicURLNamesEveryLinkWhateverTheHeaders() async throws {
    let links = LinkOrigin(
      publicURL: try PublicURL(parsing: "https://cdn.example:8443/t"),
      trustedProxies: [try IPAddressRange(parsing: "127.0.0.1")])
    let (urls, vary) = try await feed(links, headers: Self.forwarded)
    #expect(urls.count > 20)
    #expect(urls.allSatisfy { $0.hasPrefix("https://cdn.example:8443/t/") }, "\(urls.prefix(3))")
    #expect(vary == nil)
  }

  @Test func aHostOutsideHostSyntaxGivesTheBoundAddress() async throws {
    var configuration = FeedServer.Configuration.small()
    configuration.links = LinkOrigin()
    try await withLiveServer(configuration) { _, base in
      let answer = try await fetch(
        try #require(URL(string: "users.json", relativeTo: base)),
        headers: ["Host": "evil.example\"><img src=x>"])
      let urls = urls(in: answer.body)
      #expect(!urls.isEmpty)
      let bound = try #require(base.absoluteString.split(separator: "/").dropFirst().first)
      #expect(urls.allSatisfy { $0.hasPrefix("http://\(bound)/") }, "\(urls.prefix(3))")
    }
  }
}
