import Testing

@testable import TesseraServer

/// The feed's links name the address clients asked for: `--public-url` first, then what a
/// trusted proxy forwarded, then `Host`, then the bound address. Forwarded headers from
/// anyone else are ignored, and nothing from outside gets into a link unchecked.
@Suite struct LinkOriginTests {
  static let bound = "127.0.0.1:8080"
  static let proxy = IPAddress("10.0.0.2")!
  static let stranger = IPAddress("203.0.113.9")!
  static let trusting = LinkOrigin(
    trustedProxies: [try! IPAddressRange(parsing: "10.0.0.0/24")])
  static let forwardedEverything = LinkOrigin.Headers(
    host: "127.0.0.1:8080", forwarded: "for=198.51.100.1;proto=https;host=fwd.example",
    forwardedProto: "https", forwardedHost: "xfwd.example", forwardedPort: "8443",
    forwardedPrefix: "/gallery")

  func base(
    _ origin: LinkOrigin, _ headers: LinkOrigin.Headers, peer: IPAddress? = LinkOriginTests.proxy
  )
    -> String
  {
    origin.base(headers: headers, peer: peer, bound: Self.bound)
  }

  @Test func thePublicURLWinsOverEverything() throws {
    var origin = Self.trusting
    origin.publicURL = try PublicURL(parsing: "https://photos.example/tessera")
    #expect(base(origin, Self.forwardedEverything) == "https://photos.example/tessera/")
    #expect(base(origin, .init(), peer: nil) == "https://photos.example/tessera/")
    #expect(origin.vary == nil)
  }

  @Test func aTrustedProxysForwardedHeaderIsBelieved() {
    #expect(base(Self.trusting, Self.forwardedEverything) == "https://fwd.example/gallery/")
    let noHost = LinkOrigin.Headers(host: "origin.lan:8080", forwarded: "for=1.2.3.4;proto=http")
    #expect(base(Self.trusting, noHost) == "http://origin.lan:8080/")
  }

  @Test func theClientFacingElementOfATrustedChainIsUsed() {
    // client → 10.0.0.5 (trusted, wrote the first element) → 10.0.0.2 (the peer).
    let chain = LinkOrigin.Headers(
      forwarded: "for=198.51.100.1;host=public.example;proto=https, "
        + "for=10.0.0.5;host=inner.lan;proto=http")
    #expect(base(Self.trusting, chain) == "https://public.example/")
    // An element the client wrote itself, before an untrusted hop, is never reached.
    let spoofed = LinkOrigin.Headers(
      forwarded: "for=10.0.0.9;host=evil.example, for=198.51.100.1;host=real.example")
    #expect(base(Self.trusting, spoofed) == "http://real.example/")
  }

  @Test func aTrustedProxysXForwardedHeadersAreBelieved() {
    var headers = Self.forwardedEverything
    headers.forwarded = nil
    #expect(base(Self.trusting, headers) == "https://xfwd.example:8443/gallery/")
    headers.forwardedPort = "443"
    #expect(base(Self.trusting, headers) == "https://xfwd.example/gallery/")
    // nginx's usual set: the client's Host and the port it listens on.
    let nginx = LinkOrigin.Headers(
      host: "127.0.0.1:8080", forwardedProto: "http", forwardedHost: "127.0.0.1:4000",
      forwardedPort: "4000")
    #expect(base(Self.trusting, nginx) == "http://127.0.0.1:4000/")
    // A list's last value is the one the trusted proxy set.
    let listed = LinkOrigin.Headers(
      forwardedProto: "http, https", forwardedHost: "evil.example, cdn.example")
    #expect(base(Self.trusting, listed) == "https://cdn.example/")
  }

  @Test func anUntrustedPeersForwardedHeadersAreIgnored() {
    for peer in [Self.stranger, nil] {
      #expect(base(Self.trusting, Self.forwardedEverything, peer: peer) == "http://127.0.0.1:8080/")
      #expect(base(LinkOrigin(), Self.forwardedEverything, peer: peer) == "http://127.0.0.1:8080/")
    }
    let host = LinkOrigin.Headers(host: "photos.lan:9000", forwardedHost: "evil.example")
    #expect(base(LinkOrigin(), host) == "http://photos.lan:9000/")
  }

  @Test func aMappedIPv4PeerIsTrustedAsItsIPv4Address() throws {
    let peer = try #require(IPAddress("::ffff:10.0.0.2"))
    #expect(
      base(Self.trusting, Self.forwardedEverything, peer: peer) == "https://fwd.example/gallery/")
  }

  /// A trusted proxy's bad value is not half-used: the request is treated as a client's.
  @Test(arguments: [
    LinkOrigin.Headers(host: "h.lan", forwardedProto: "javascript"),
    LinkOrigin.Headers(host: "h.lan", forwardedProto: "https", forwardedHost: "evil.example/x"),
    LinkOrigin.Headers(host: "h.lan", forwardedHost: "a.example", forwardedPort: "0"),
    LinkOrigin.Headers(host: "h.lan", forwardedHost: "a.example", forwardedPort: "99999"),
    LinkOrigin.Headers(host: "h.lan", forwardedHost: "a.example", forwardedPrefix: "/../x"),
    LinkOrigin.Headers(host: "h.lan", forwardedHost: "a\"b.example"),
    LinkOrigin.Headers(host: "h.lan", forwarded: "proto=ftp;host=a.example"),
    LinkOrigin.Headers(host: "h.lan", forwarded: "host=\"a.example/<x>\""),
    LinkOrigin.Headers(host: "h.lan", forwarded: "host=a.example;host=b.example"),
  ])
  func aTrustedProxysBadValueFallsBackToHost(headers: LinkOrigin.Headers) {
    #expect(base(Self.trusting, headers) == "http://h.lan/")
  }

  @Test(arguments: [
    "evil.com/x", "evil.com\"", "evil.com:0", "evil.com:abc", "a b", "evil.com?q", "", "[::1",
    "user@evil.com", "evil.com\r\nSet-Cookie: x",
  ])
  func aBadHostFallsBackToTheBoundAddress(host: String) {
    #expect(base(LinkOrigin(), .init(host: host)) == "http://127.0.0.1:8080/")
  }

  @Test func varyNamesTheHeadersLinksDependOn() {
    #expect(LinkOrigin().vary == "Host")
    #expect(Self.trusting.vary?.contains("X-Forwarded-Host") == true)
  }
}
