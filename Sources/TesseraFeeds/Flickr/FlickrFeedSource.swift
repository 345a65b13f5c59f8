import Foundation

/// A Flickr public feed, real or served by `TesseraServer`: photos as view models.
public struct FlickrFeedSource: FeedSource {
  public let noun = "photos"
  /// The feed's address without query: `…/services/feeds/photos_public.gne`.
  public var feedURL: URL
  /// Only photos carrying all these tags; empty for all.
  public var tags: [String]
  /// Items per page (Tessera's paging extension); nil leaves the server's default.
  public var perPage: Int?
  private let fetcher: HTTPFetcher

  public init(
    feedURL: URL, tags: [String] = [], perPage: Int? = nil, fetcher: HTTPFetcher = HTTPFetcher()
  ) {
    self.feedURL = feedURL
    self.tags = tags
    self.perPage = perPage
    self.fetcher = fetcher
  }

  /// The request for one page, in Flickr's JSON form.
  public func url(page: Int) -> URL? {
    guard var components = URLComponents(url: feedURL, resolvingAgainstBaseURL: false) else {
      return nil
    }
    let given = components.queryItems ?? []
    let ours: Set<String> = ["format", "nojsoncallback", "tags", "page", "per_page"]
    var items = given.filter { !ours.contains($0.name) }
    items.append(URLQueryItem(name: "format", value: "json"))
    items.append(URLQueryItem(name: "nojsoncallback", value: "1"))
    // The address's own tags and page size stand unless the source sets its own.
    let givenTags = given.last { $0.name == "tags" }?.value ?? ""
    let tags = tags.isEmpty ? givenTags : tags.joined(separator: ",")
    if !tags.isEmpty { items.append(URLQueryItem(name: "tags", value: tags)) }
    if page > 1 { items.append(URLQueryItem(name: "page", value: String(page))) }
    let givenPerPage = given.last { $0.name == "per_page" }?.value
    if let perPage = perPage.map(String.init) ?? givenPerPage, !perPage.isEmpty {
      items.append(URLQueryItem(name: "per_page", value: perPage))
    }
    components.queryItems = items
    return components.url
  }

  public func fetch(page: Int) async throws(FeedError) -> FeedPage<PhotoViewModel> {
    guard let url = url(page: page) else { throw .invalidURL(feedURL.absoluteString) }
    let data = try await fetcher.get(url)
    do {
      return try FlickrFeedParser.parse(data).map(PhotoViewModel.init)
    } catch .emptyFeed where page > 1 {
      // Past the last page: nothing more, which is no failure.
      return FeedPage(items: [])
    }
  }
}

/// A users JSON array (`[{avatar, username, role}]`, contacts) as view models.
public struct UsersFeedSource: FeedSource {
  public let noun = "contacts"
  public var url: URL
  private let fetcher: HTTPFetcher

  public init(url: URL, fetcher: HTTPFetcher = HTTPFetcher()) {
    self.url = url
    self.fetcher = fetcher
  }

  public func fetch(page: Int) async throws(FeedError) -> FeedPage<UserViewModel> {
    try UsersParser.parse(try await fetcher.get(url)).map(UserViewModel.init)
  }
}
