// Models, view models and feed sources (Flickr public feed, users list, local folder), and the
// controller that fetches them. The photo library a folder source reads is `TesseraPhotoLibrary`.

@_exported import TesseraGeometry

@_exported import enum TesseraUtilities.FeedLimits
