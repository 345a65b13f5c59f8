import Foundation

/// Where the feed's links point: the address clients asked for, not the one the server bound.
///
/// In order: the operator's `--public-url`; when the connection comes from a proxy the
/// operator trusts, what that proxy forwarded (`Forwarded`, else `X-Forwarded-Proto`, `-Host`,
/// `-Port` and `-Prefix`); the request's own `Host`; the bound address. Each source is used
/// only if every value it gives passes `URLSyntax`, and a header can never choose a scheme
/// other than http or https. Anyone may send forwarded headers, so from an untrusted peer
/// they are ignored; only `Host`, which names this server anyway, is taken from anyone.
///
/// Pure: the same headers, peer and settings give the same base URL, which always ends in `/`.
public struct LinkOrigin: Sendable, Equatable {
  public var publicURL: PublicURL?
  public var trustedProxies: [IPAddressRange]

  public init(publicURL: PublicURL? = nil, trustedProxies: [IPAddressRange] = []) {
    self.publicURL = publicURL
    self.trustedProxies = trustedProxies
  }

  /// The request headers the decision reads; values of repeated headers joined with ", ".
  public struct Headers: Sendable, Equatable {
    public var host: String?
    public var forwarded: String?
    public var forwardedProto: String?
    public var forwardedHost: String?
    public var forwardedPort: String?
    public var forwardedPrefix: String?

    public init(
      host: String? = nil, forwarded: String? = nil, forwardedProto: String? = nil,
      forwardedHost: String? = nil, forwardedPort: String? = nil, forwardedPrefix: String? = nil
    ) {
      self.host = host
      self.forwarded = forwarded
      self.forwardedProto = forwardedProto
      self.forwardedHost = forwardedHost
      self.forwardedPort = forwardedPort
      self.forwardedPrefix = forwardedPrefix
    }
  }

  /// The base URL of links for a request with `headers` from `peer` (nil: not an IP peer,
  /// never trusted); `bound` is the server's own `host:port`, the last resort.
  public func base(headers: Headers, peer: IPAddress?, bound: String) -> String {
    if let publicURL { return publicURL.base }
    if let peer, isTrusted(peer), let forwarded = forwardedBase(headers) {
      return forwarded
    }
    if let host = headers.host, let authority = URLSyntax.authority(host, scheme: "http") {
      return "http://\(authority)/"
    }
    return "http://\(bound)/"
  }

  /// The request headers links depend on, for `Vary`; nil when links are fixed.
  public var vary: String? {
    if publicURL != nil { return nil }
    if trustedProxies.isEmpty { return "Host" }
    return "Host, Forwarded, X-Forwarded-Proto, X-Forwarded-Host, X-Forwarded-Port, "
      + "X-Forwarded-Prefix"
  }

  func isTrusted(_ address: IPAddress) -> Bool {
    trustedProxies.contains { $0.contains(address) }
  }

  /// The base a trusted proxy forwarded, `Forwarded` first; nil when it forwarded nothing
  /// usable, and then the request is treated as if it came straight from a client.
  private func forwardedBase(_ headers: Headers) -> String? {
    guard
      let prefix = headers.forwardedPrefix.map({ URLSyntax.pathPrefix(Self.last($0)) })
        ?? "/"
    else { return nil }
    if let text = headers.forwarded {
      guard let element = clientFacingElement(text) else { return nil }
      let scheme = element["proto"].map { URLSyntax.scheme($0) } ?? "http"
      guard let scheme,
        let authority = (element["host"] ?? headers.host).flatMap({
          URLSyntax.authority($0, scheme: scheme)
        })
      else { return nil }
      return "\(scheme)://\(authority)\(prefix)"
    }
    guard
      headers.forwardedProto != nil || headers.forwardedHost != nil
        || headers.forwardedPort != nil || headers.forwardedPrefix != nil
    else { return nil }
    let scheme = headers.forwardedProto.map { URLSyntax.scheme(Self.last($0)) } ?? "http"
    guard let scheme,
      let hostText = headers.forwardedHost.map(Self.last) ?? headers.host,
      var authority = URLSyntax.authority(hostText, scheme: scheme)
    else { return nil }
    if let portText = headers.forwardedPort {
      guard let port = URLSyntax.port(Self.last(portText)) else { return nil }
      authority = URLSyntax.with(port: port, host: Self.hostPart(of: authority), scheme: scheme)
    }
    return "\(scheme)://\(authority)\(prefix)"
  }

  /// The element written by the outermost proxy in the trusted chain: the last element is our
  /// peer's; while an element's `for=` is itself trusted, the one before it was written by
  /// that proxy. Its `host` and `proto` are what the client asked for.
  private func clientFacingElement(_ text: String) -> ForwardedHeader.Element? {
    guard let elements = ForwardedHeader.parse(text), var index = elements.indices.last else {
      return nil
    }
    while index > elements.startIndex,
      let node = elements[index]["for"], let address = ForwardedHeader.address(node),
      isTrusted(address)
    {
      index -= 1
    }
    return elements[index]
  }

  /// The last of a comma-separated list: the value the trusted proxy itself set, whatever
  /// its own client sent before it.
  private static func last(_ list: String) -> String {
    let value = list.split(separator: ",", omittingEmptySubsequences: false).last ?? ""
    return value.trimmingCharacters(in: .whitespaces)
  }

  /// `host` of a checked `host[:port]`.
  private static func hostPart(of authority: String) -> String {
    if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
      return String(authority[...close])
    }
    return String(authority.split(separator: ":", maxSplits: 1).first ?? "")
  }
}
