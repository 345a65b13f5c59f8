/// The `--public-url`: where clients reach the server (a cache, a proxy, a CDN), and so the
/// start of every link the feed and the users list write. `http(s)://host[:port][/prefix]`,
/// nothing else: no user, query or fragment, and a prefix of plain segments.
public struct PublicURL: Hashable, Sendable, CustomStringConvertible {
  /// The URL links start with, always ending in `/`: `https://photos.example/gallery/`.
  public let base: String

  public init(parsing text: String) throws(LinkSettingError) {
    let shown = String(reflecting: String(text.prefix(120)))
    let example = "such as https://photos.example or http://cache.lan:8080/tessera"
    guard text.utf8.count <= 2_048, let separator = text.firstRange(of: "://") else {
      throw LinkSettingError("\(shown) is not an http or https URL, \(example)")
    }
    guard let scheme = URLSyntax.scheme(text[..<separator.lowerBound]) else {
      throw LinkSettingError("\(shown): the scheme must be http or https")
    }
    let rest = text[separator.upperBound...]
    if rest.contains("?") || rest.contains("#") {
      throw LinkSettingError("\(shown): a public URL has no query or fragment")
    }
    if rest.contains("@") {
      throw LinkSettingError("\(shown): a public URL names no user or password")
    }
    let slash = rest.firstIndex(of: "/") ?? rest.endIndex
    guard let authority = URLSyntax.authority(rest[..<slash], scheme: scheme) else {
      throw LinkSettingError(
        "\(shown): the host must be a DNS name, an IPv4 address or a bracketed IPv6 address, "
          + "with an optional port 1…65535")
    }
    guard let prefix = URLSyntax.pathPrefix(rest[slash...]) else {
      throw LinkSettingError(
        "\(shown): the path must be plain segments of letters, digits, '-', '.', '_' and '~'")
    }
    base = "\(scheme)://\(authority)\(prefix)"
  }

  public var description: String { base }
}
