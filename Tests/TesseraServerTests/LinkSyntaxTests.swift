import Testing

@testable import TesseraServer

/// What may go into a link from outside is read by a strict grammar: addresses, blocks,
/// hosts, ports, prefixes, public URLs and the `Forwarded` header.
@Suite struct LinkSyntaxTests {
  @Test(
    arguments: [
      ("127.0.0.1", [127, 0, 0, 1]), ("0.0.0.0", [0, 0, 0, 0]),
      ("255.255.255.255", [255, 255, 255, 255]),
    ] as [(String, [UInt8])])
  func ipv4AddressesAreRead(text: String, bytes: [UInt8]) {
    #expect(IPAddress(text)?.bytes == bytes)
  }

  @Test func ipv6AddressesAreRead() throws {
    #expect(IPAddress("::1")?.bytes == [UInt8](repeating: 0, count: 15) + [1])
    #expect(IPAddress("::")?.bytes == [UInt8](repeating: 0, count: 16))
    let full = try #require(IPAddress("2001:db8:0:0:1:0:0:1"))
    #expect(IPAddress("2001:DB8::1:0:0:1") == full)
    #expect(full.description == "2001:db8:0:0:1:0:0:1")
    let mapped = try #require(IPAddress("::ffff:192.0.2.7"))
    #expect(mapped.bytes.count == 16)
    #expect(mapped.unmapped == IPAddress("192.0.2.7"))
    #expect(IPAddress("1:2:3:4:5:6:7::") != nil)
    #expect(IPAddress("::2:3:4:5:6:7:8") != nil)
  }

  @Test(arguments: [
    "", "1.2.3", "1.2.3.4.5", "256.1.1.1", "01.2.3.4", "1.2.3.4 ", " 1.2.3.4", "1..3.4",
    "+1.2.3.4", "1.2.3.-4", ":::", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7:8::", "1::2::3",
    "12345::1", "+1::", "::-1", "::+f", "::1%eth0", "fe80::g", ":1::", "1.2.3.4::", "::1.2.3",
    "[::1]", "١.٢.٣.٤",
  ])
  func malformedAddressesAreRefused(text: String) {
    #expect(IPAddress(text) == nil)
  }

  @Test func rangesMatchTheirAddressesOnly() throws {
    let loopback = try IPAddressRange(parsing: "127.0.0.0/8")
    #expect(loopback.contains(try #require(IPAddress("127.200.0.1"))))
    #expect(!loopback.contains(try #require(IPAddress("128.0.0.1"))))
    // A dual-stack listener reports an IPv4 peer as a mapped IPv6 address.
    #expect(loopback.contains(try #require(IPAddress("::ffff:127.0.0.1"))))
    #expect(!loopback.contains(try #require(IPAddress("::1"))))
    let one = try IPAddressRange(parsing: "10.0.0.7")
    #expect(one.prefixLength == 32)
    #expect(one.contains(try #require(IPAddress("10.0.0.7"))))
    #expect(!one.contains(try #require(IPAddress("10.0.0.8"))))
    let v6 = try IPAddressRange(parsing: "fd00::/8")
    #expect(v6.contains(try #require(IPAddress("fd12:3456::1"))))
    #expect(!v6.contains(try #require(IPAddress("fe80::1"))))
    #expect(try IPAddressRange(parsing: "0.0.0.0/0").contains(try #require(IPAddress("9.9.9.9"))))
    #expect(try IPAddressRange(parsing: "10.1.2.0/23").description == "10.1.2.0/23")
  }

  @Test(arguments: [
    "10.0.0.1/8", "10.0.0.0/33", "10.0.0.0/", "10.0.0.0/08", "10.0.0.0/-1", "10.0.0.0/8/8",
    "fd00::/129", "fd00::1/8", "localhost", "", "10.0.0.0/ 8", "10.0.0.0/1000",
  ])
  func malformedRangesAreRefusedWithAReason(text: String) {
    #expect(throws: LinkSettingError.self) { try IPAddressRange(parsing: text) }
  }

  @Test func aRangeWithHostBitsNamesTheBlock() {
    #expect(
      throws: LinkSettingError(
        "\"10.0.0.1/8\" has bits set past its /8 prefix; the block is 10.0.0.0/8")
    ) {
      try IPAddressRange(parsing: "10.0.0.1/8")
    }
  }

  @Test(arguments: [
    ("example.com", "example.com"), ("Example.COM:8080", "example.com:8080"),
    ("example.com:80", "example.com"), ("127.0.0.1:8080", "127.0.0.1:8080"),
    ("[::1]:8080", "[::1]:8080"), ("[2001:DB8::1]", "[2001:db8::1]"), ("a-b.c1", "a-b.c1"),
    ("localhost", "localhost"),
  ])
  func authoritiesAreNormalised(text: String, expected: String) {
    #expect(URLSyntax.authority(text, scheme: "http") == expected)
  }

  @Test(arguments: [
    "", "example.com:", "example.com:0", "example.com:65536", "example.com:+80",
    "example.com:08080x", "exa mple.com", "evil.com/path", "evil.com?x", "evil.com#x",
    "user@evil.com", "evil.com\"><script>", "-a.com", "a-.com", "a..com", ".com", "com.",
    "999.1.1.1", "1.2.3", "[::1", "[::1]x", "[::g]", "[]", "[1.2.3.4]", "ex%41mple.com",
    "exämple.com", "a_b.com", "evil.com\r\nX: y", String(repeating: "a.", count: 130) + "a",
    "example.com:123456",
  ])
  func malformedAuthoritiesAreRefused(text: String) {
    #expect(URLSyntax.authority(text, scheme: "http") == nil)
  }

  @Test func defaultPortsAreLeftOutPerScheme() {
    #expect(URLSyntax.authority("example.com:443", scheme: "https") == "example.com")
    #expect(URLSyntax.authority("example.com:443", scheme: "http") == "example.com:443")
    #expect(URLSyntax.authority("example.com:80", scheme: "https") == "example.com:80")
  }

  @Test(arguments: [
    ("", "/"), ("/", "/"), ("/a", "/a/"), ("/a/b/", "/a/b/"), ("/v1.2/x~y_z-", "/v1.2/x~y_z-/"),
  ])
  func prefixesAreNormalised(text: String, expected: String) {
    #expect(URLSyntax.pathPrefix(text) == expected)
  }

  @Test(arguments: [
    "a", "//", "/a//b", "/..", "/a/../b", "/.", "/a b", "/a%2f", "/a?b", "/a#b", "/a\"b",
    "/a'b", "/a<b", "/a&b", "/a\\b", "/ä", String(repeating: "/a", count: 200),
  ])
  func malformedPrefixesAreRefused(text: String) {
    #expect(URLSyntax.pathPrefix(text) == nil)
  }

  @Test(arguments: [
    ("https://photos.example", "https://photos.example/"),
    ("HTTP://Cache.LAN:8080/tessera", "http://cache.lan:8080/tessera/"),
    ("https://photos.example:443/", "https://photos.example/"),
    ("http://[::1]:9000/a/b/", "http://[::1]:9000/a/b/"),
  ])
  func publicURLsAreNormalised(text: String, expected: String) throws {
    #expect(try PublicURL(parsing: text).base == expected)
  }

  @Test(arguments: [
    "photos.example", "ftp://photos.example", "javascript://x", "https://", "https:///a",
    "https://photos.example?x=1", "https://photos.example/#top", "https://u:p@photos.example",
    "https://photos.example:0", "https://photos.example/a/../b", "https://photos example",
    "https://photos.example/a b", "",
  ])
  func malformedPublicURLsAreRefused(text: String) {
    #expect(throws: LinkSettingError.self) { try PublicURL(parsing: text) }
  }

  @Test func forwardedElementsAreRead() throws {
    let elements = try #require(
      ForwardedHeader.parse(
        #"for=192.0.2.60;proto=https;Host="photos.example", for="[2001:db8::1]:4711";by=x"#))
    #expect(
      elements == [
        ["for": "192.0.2.60", "proto": "https", "host": "photos.example"],
        ["for": "[2001:db8::1]:4711", "by": "x"],
      ])
    #expect(
      ForwardedHeader.parse("for=a ; proto=http ,, for=b") == [
        ["for": "a", "proto": "http"], ["for": "b"],
      ])
    #expect(ForwardedHeader.parse(#"host="a\"b""#) == [["host": "a\"b"]])
    #expect(ForwardedHeader.address("[2001:db8::1]:4711") == IPAddress("2001:db8::1"))
    #expect(ForwardedHeader.address("192.0.2.1:80") == IPAddress("192.0.2.1"))
    #expect(ForwardedHeader.address("unknown") == nil)
    #expect(ForwardedHeader.address("_hidden") == nil)
  }

  @Test(arguments: [
    "for", "for=", "=x", "for=a=b", "for=a;for=b", #"host="unterminated"#, "for=a b",
    "for=\u{1}", #"host="a\"#, "host=\"é\"", "for=a,for=b;" + String(repeating: "x", count: 9_000),
    Array(repeating: "for=a", count: 70).joined(separator: ","),
  ])
  func malformedForwardedHeadersAreRefusedWhole(text: String) {
    #expect(ForwardedHeader.parse(text) == nil)
  }
}
