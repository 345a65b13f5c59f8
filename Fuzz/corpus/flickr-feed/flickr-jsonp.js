jsonFlickrFeed({
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
})