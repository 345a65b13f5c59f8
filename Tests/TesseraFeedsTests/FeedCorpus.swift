import Foundation

/// Feeds written by hand in Flickr's real format, good and bad.
enum FeedCorpus {
  /// Three photos the way Flickr writes them: escaped slashes, HTML descriptions, an empty
  /// title, an apostrophe escaped as `\'`, an HTML entity, a date with an offset.
  static let good = #"""
    {
    		"title": "Uploads from everyone",
    		"link": "https:\/\/www.flickr.com\/photos\/",
    		"description": "",
    		"modified": "2024-05-01T18:20:01Z",
    		"generator": "https:\/\/www.flickr.com",
    		"items": [
    	   {
    			"title": "Harbour at dusk",
    			"link": "https:\/\/www.flickr.com\/photos\/12345678@N00\/53712345678\/",
    			"media": {"m":"https:\/\/live.staticflickr.com\/65535\/53712345678_0a1b2c3d4e_m.jpg"},
    			"date_taken": "2024-05-01T10:12:33-08:00",
    			"description": " <p><a href=\"https:\/\/www.flickr.com\/people\/12345678@N00\/\">Ada L<\/a> posted a photo:<\/p> <p><a href=\"https:\/\/www.flickr.com\/photos\/12345678@N00\/53712345678\/\" title=\"Harbour at dusk\"><img src=\"https:\/\/live.staticflickr.com\/65535\/53712345678_0a1b2c3d4e_m.jpg\" width=\"240\" height=\"160\" alt=\"Harbour at dusk\" \/><\/a><\/p> <p>Boats &amp; gulls.<\/p>",
    			"published": "2024-05-01T18:20:01Z",
    			"author": "nobody@flickr.com (\"Ada L\")",
    			"author_id": "12345678@N00",
    			"tags": "harbour dusk boats"
    	   },
    	   {
    			"title": "",
    			"link": "https:\/\/www.flickr.com\/photos\/98765432@N05\/53712345679\/",
    			"media": {"m":"https:\/\/live.staticflickr.com\/65535\/53712345679_ffee001122_m.jpg"},
    			"date_taken": "2024-04-30T23:59:59+02:00",
    			"description": " <p><a href=\"https:\/\/www.flickr.com\/people\/98765432@N05\/\">grace<\/a> posted a photo:<\/p> <p><a href=\"https:\/\/www.flickr.com\/photos\/98765432@N05\/53712345679\/\" title=\"\"><img src=\"https:\/\/live.staticflickr.com\/65535\/53712345679_ffee001122_m.jpg\" width=\"160\" height=\"240\" alt=\"\" \/><\/a><\/p> ",
    			"published": "2024-05-01T18:19:40Z",
    			"author": "nobody@flickr.com (\"grace\")",
    			"author_id": "98765432@N05",
    			"tags": ""
    	   },
    	   {
    			"title": "Anna\'s garden",
    			"link": "https:\/\/www.flickr.com\/photos\/11111111@N01\/53712345680\/",
    			"media": {"m":"https:\/\/live.staticflickr.com\/65535\/53712345680_abcdef0123_m.jpg"},
    			"date_taken": "2024-04-29T08:00:00-00:00",
    			"description": " <p><a href=\"https:\/\/www.flickr.com\/people\/11111111@N01\/\">Tim O\'Neil<\/a> posted a photo:<\/p> ",
    			"published": "2024-05-01T18:10:00Z",
    			"author": "nobody@flickr.com (\"Tim O\'Neil\")",
    			"author_id": "11111111@N01",
    			"tags": "garden flowers"
    	   }
    	]
    }
    """#

  /// The same feed as JSONP, which Flickr sends without `nojsoncallback=1`.
  static let jsonp = "jsonFlickrFeed(" + good + ")"

  /// An item for the mixed feed, with one field replaced or removed.
  static func item(id: Int, replacing key: String? = nil, with value: String? = nil) -> String {
    var fields = [
      ("title", #""Photo \#(id)""#),
      ("link", #""https:\/\/www.flickr.com\/photos\/1@N00\/\#(id)\/""#),
      ("media", #"{"m":"https:\/\/live.staticflickr.com\/1\/\#(id)_abc123_m.jpg"}"#),
      ("date_taken", #""2024-05-01T10:00:00-08:00""#),
      ("description", #""""#),
      ("published", #""2024-05-01T18:00:00Z""#),
      ("author", #""nobody@flickr.com (\"someone\")""#),
      ("author_id", #""1@N00""#),
      ("tags", #""a b""#),
    ]
    if let key {
      if let value {
        fields = fields.map { $0.0 == key ? (key, value) : $0 }
      } else {
        fields.removeAll { $0.0 == key }
      }
    }
    return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ",\n") + "}"
  }

  static func feed(items: [String]) -> String {
    #"{"title": "Uploads from everyone", "items": ["# + items.joined(separator: ",\n") + "]}"
  }

  /// Good items around broken ones; each broken one says what is wrong with it.
  static let mixed = feed(items: [
    item(id: 1),
    item(id: 2, replacing: "media"),
    item(id: 3, replacing: "media", with: #"{"s": "https:\/\/x\/3_abc_s.jpg"}"#),
    item(id: 4, replacing: "media", with: #""https:\/\/x\/4_abc_m.jpg""#),
    item(id: 5, replacing: "title", with: "42"),
    item(id: 6, replacing: "link", with: #""not a url""#),
    #""just a string""#,
    item(id: 8, replacing: "media", with: #"{"m": null}"#),
    item(id: 9, replacing: "date_taken", with: #""yesterday""#),
    item(id: 10, replacing: "title"),
  ])

  static let htmlErrorPage = """
    <!DOCTYPE html>
    <html><head><title>502 Bad Gateway</title></head><body>Bad gateway</body></html>
    """
}
