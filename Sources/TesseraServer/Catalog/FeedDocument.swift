import Foundation
import TesseraImageSynthesis

/// The query of `photos_public.gne`: Flickr's `format`, `nojsoncallback`, `tags`, `tagmode`,
/// and Tessera's paging extension `page` / `per_page`.
///
/// Numbers are checked as text before `Int` sees them: ASCII digits only. `page` is any whole
/// number from 1 (one too long for `Int` is past every last page, and a page past the end is
/// empty, like Flickr's); `per_page` is 1…`ServerLimits.maxPerPage`. Anything else is a 400
/// with the reason.
struct FeedQuery: Equatable {
  static let defaultPerPage = ServerLimits.defaultPerPage
  static let maxPerPage = ServerLimits.maxPerPage

  var tags: [String] = []
  var matchAll = true
  var page = 1
  var perPage = defaultPerPage
  /// Without `nojsoncallback=1` Flickr wraps the JSON in `jsonFlickrFeed(…)`.
  var jsonp = true

  struct Invalid: Error {
    let message: String
  }

  init(_ parameter: (String) -> String?) throws(Invalid) {
    guard parameter("format")?.lowercased() == "json" else {
      throw Invalid(message: "only format=json is served")
    }
    jsonp = parameter("nojsoncallback") != "1"
    tags = (parameter("tags") ?? "").split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces).lowercased()
    }.filter { !$0.isEmpty }
    switch parameter("tagmode")?.lowercased() {
    case nil, "all": matchAll = true
    case "any": matchAll = false
    default: throw Invalid(message: "tagmode must be all or any")
    }
    if let text = parameter("page") {
      guard Self.isDecimal(text) else {
        throw Invalid(message: "page must be a whole number from 1")
      }
      let value = Int(text) ?? Int.max
      guard value >= 1 else { throw Invalid(message: "page must be a whole number from 1") }
      page = value
    }
    if let text = parameter("per_page") {
      guard Self.isDecimal(text), let value = Int(text), (1...Self.maxPerPage).contains(value)
      else {
        throw Invalid(message: "per_page must be a whole number from 1 to \(Self.maxPerPage)")
      }
      perPage = value
    }
  }

  /// One or more ASCII digits, nothing else (no sign, no spaces).
  private static func isDecimal(_ text: String) -> Bool {
    !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
  }
}

/// Renders the feed JSON as Flickr does, plus `page`, `pages`, `per_page` and `total`.
/// A page past the last is empty. O(per_page) after the tag lookup.
enum FeedDocument {
  static func render(
    _ query: FeedQuery, catalog: Catalog, base: String, escapesApostrophes: Bool
  ) -> String {
    let ids = catalog.ids(tags: query.tags, matchAll: query.matchAll)
    let pages = max(1, (ids.count + query.perPage - 1) / query.perPage)
    // `page` may be anything up to Int.max: the product is formed only for pages that exist
    // (page ≤ pages ≤ ids.count + 1), where it cannot overflow.
    let start = query.page > pages ? ids.count : min(ids.count, (query.page - 1) * query.perPage)
    let slice = ids[start..<min(ids.count, start + query.perPage)]
    var json = FlickrJSON(escapesApostrophes: escapesApostrophes)
    json.raw("{\n")
    json.indent = "\t\t"
    let title =
      query.tags.isEmpty
      ? "Uploads from everyone" : "Recent Uploads tagged \(query.tags.joined(separator: ","))"
    json.field("title", title)
    json.field("link", base + "photos/")
    json.field("description", "")
    json.field("modified", FlickrJSON.utc(catalog.newest))
    json.field("generator", base)
    json.raw("\t\t\"page\": \(query.page),\n\t\t\"pages\": \(pages),\n")
    json.raw("\t\t\"per_page\": \(query.perPage),\n\t\t\"total\": \(ids.count),\n")
    json.raw("\t\t\"items\": [")
    for (position, id) in slice.enumerated() {
      json.raw(position == 0 ? "\n" : ",\n")
      item(catalog.entry(id: id), catalog: catalog, base: base, into: &json)
    }
    json.raw("\n\t]\n}")
    return query.jsonp ? "jsonFlickrFeed(\(json.text))" : json.text
  }

  private static func item(
    _ entry: Catalog.Entry, catalog: Catalog, base: String, into json: inout FlickrJSON
  ) {
    let link = "\(base)photos/\(entry.authorID)/\(entry.id)/"
    let media = "\(base)photos/\(entry.id)_\(entry.secret)_m.\(entry.format.rawValue)"
    let size = ImageVariant.m.size(id: entry.id, seed: catalog.seed)
    let title = html(entry.title)
    let description =
      " <p><a href=\"\(base)people/\(entry.authorID)/\">\(html(entry.author))</a> posted a photo:</p> "
      + "<p><a href=\"\(link)\" title=\"\(title)\"><img src=\"\(media)\" width=\"\(size.width)\" "
      + "height=\"\(size.height)\" alt=\"\(title)\" /></a></p> "
    json.raw("\t   {\n")
    json.indent = "\t\t\t"
    json.field("title", entry.title)
    json.field("link", link)
    json.raw(json.indent)
    json.string("media")
    json.raw(": {\"m\":")
    json.string(media)
    json.raw("},\n")
    json.field("date_taken", FlickrJSON.local(entry.taken, offsetMinutes: entry.takenOffsetMinutes))
    json.field("description", description)
    json.field("published", FlickrJSON.utc(entry.published))
    json.field("author", "nobody@flickr.com (\"\(entry.author)\")")
    json.field("author_id", entry.authorID)
    json.field("tags", entry.tags.joined(separator: " "), last: true)
    json.raw("\n\t   }")
  }

  static func html(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}

/// Renders the users JSON array: `avatar`, `username`, `role`. O(users).
enum UsersDocument {
  static func render(catalog: Catalog, base: String) -> String {
    var json = FlickrJSON(escapesApostrophes: false)
    json.raw("[")
    for id in stride(from: 1, through: catalog.userCount, by: 1) {
      let user = catalog.user(id: id)
      json.raw(id == 1 ? "\n" : ",\n")
      json.raw("{")
      json.field("avatar", "\(base)avatars/\(id).png")
      if let role = user.role {
        json.field("username", user.username)
        json.field("role", role, last: true)
      } else {
        json.field("username", user.username, last: true)
      }
      json.raw("}")
    }
    json.raw("\n]\n")
    return json.text
  }
}
