import Foundation
import TesseraUtilities

/// Turns a Flickr public feed (`photos_public.gne?format=json&nojsoncallback=1`) into photos.
///
/// Entries that cannot become a photo are skipped with the reason; the feed fails only when
/// the document itself is wrong, or when every entry was. Linear in the body's size.
public enum FlickrFeedParser {
  public static func parse(_ data: Data) throws(FeedError) -> FeedPage<Photo> {
    let document = try JSONDocument.parse(data)
    guard let root = document as? [String: Any] else {
      throw .wrongShape(field: "", item: nil, expected: "a JSON object")
    }
    guard let value = root["items"] else {
      throw .wrongShape(field: "items", item: nil, expected: "an array")
    }
    guard let entries = value as? [Any] else {
      throw .wrongShape(field: "items", item: nil, expected: "an array")
    }
    var photos: [Photo] = []
    var skipped: [SkippedItem] = []
    photos.reserveCapacity(entries.count)
    for (index, entry) in entries.enumerated() {
      do throws(SkippedItem) {
        photos.append(try photo(from: entry, index: index))
      } catch {
        skipped.append(error)
      }
    }
    if photos.isEmpty {
      throw skipped.first?.asFeedError ?? .emptyFeed
    }
    return FeedPage(items: photos, skipped: skipped, nextPage: nextPage(root))
  }

  /// Tessera's paging extension (`page`, `pages`); a real Flickr feed has neither: one page.
  /// Both must be whole numbers in 1…`FeedLimits.maxPage` (a fraction, NaN or a huge number
  /// ends the feed), so `page + 1` never overflows.
  static func nextPage(_ root: [String: Any]) -> Int? {
    guard let page = pageNumber(root["page"]), let pages = pageNumber(root["pages"]),
      page < pages
    else { return nil }
    return page + 1
  }

  /// A JSON number that is a whole page number within limits; nil for anything else
  /// (`NSNumber.intValue` would truncate 1e300 or 2.5 silently).
  private static func pageNumber(_ value: Any?) -> Int? {
    guard let number = value as? NSNumber else { return nil }
    let double = number.doubleValue
    guard double.isFinite, double == double.rounded(),
      double >= 1, double <= Double(FeedLimits.maxPage)
    else { return nil }
    return number.intValue
  }

  static func photo(from entry: Any, index: Int) throws(SkippedItem) -> Photo {
    guard let object = entry as? [String: Any] else {
      throw SkippedItem(index: index, field: "", reason: .wrongType(expected: "an object"))
    }
    let fields = FeedFields(object: object, index: index)
    let media = try fields.nested("media").requiredWebURL("m")
    let link = try fields.requiredWebURL("link")
    let fileName = FlickrFileName(media.lastPathComponent)
    guard let id = fileName?.id ?? photoID(fromPage: link) else {
      throw SkippedItem(index: index, field: "link", reason: .invalid("no photo id"))
    }
    let description = try fields.optional("description") ?? ""
    return Photo(
      id: id,
      title: HTMLText.decodingEntities(try fields.optional("title") ?? ""),
      link: link,
      mediaURL: media,
      dateTaken: FeedDate.parse(try fields.optional("date_taken")),
      published: FeedDate.parse(try fields.optional("published")),
      author: authorName(try fields.optional("author") ?? ""),
      authorID: try fields.optional("author_id") ?? "",
      tags: (try fields.optional("tags") ?? "").split(separator: " ").map(String.init),
      descriptionHTML: description,
      mediaPixelSize: HTMLText.firstImageSize(description),
      sizing: fileName == nil ? .fixed : .flickr
    )
  }

  /// `…/photos/{author}/{id}/` → `{id}`.
  private static func photoID(fromPage link: URL) -> String? {
    let last = link.pathComponents.last { $0 != "/" }
    guard let last, !last.isEmpty, last.allSatisfy(\.isNumber) else { return nil }
    return last
  }

  /// Flickr writes authors as `nobody@flickr.com ("name")`; the name is what people read.
  static func authorName(_ author: String) -> String {
    guard let open = author.range(of: "(\""),
      let close = author.range(of: "\")", options: .backwards),
      open.upperBound <= close.lowerBound
    else { return author }
    return String(author[open.upperBound..<close.lowerBound])
  }
}
