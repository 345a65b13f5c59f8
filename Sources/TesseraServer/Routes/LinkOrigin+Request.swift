import Hummingbird

extension LinkOrigin.Headers {
  private static let forwarded = HTTPFields.Element.Name("Forwarded")!
  private static let forwardedProto = HTTPFields.Element.Name("X-Forwarded-Proto")!
  private static let forwardedHost = HTTPFields.Element.Name("X-Forwarded-Host")!
  private static let forwardedPort = HTTPFields.Element.Name("X-Forwarded-Port")!
  private static let forwardedPrefix = HTTPFields.Element.Name("X-Forwarded-Prefix")!

  /// What `LinkOrigin` reads of a request. HTTP/1's `Host` arrives as the request's
  /// authority; a header sent more than once counts as one list, as RFC 9110 joins them.
  init(_ request: Request) {
    func joined(_ name: HTTPFields.Element.Name) -> String? {
      let values = request.headers[values: name]
      return values.isEmpty ? nil : values.joined(separator: ", ")
    }
    self.init(
      host: request.head.authority, forwarded: joined(Self.forwarded),
      forwardedProto: joined(Self.forwardedProto), forwardedHost: joined(Self.forwardedHost),
      forwardedPort: joined(Self.forwardedPort), forwardedPrefix: joined(Self.forwardedPrefix))
  }
}
