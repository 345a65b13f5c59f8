// Models, view models and feed sources (Flickr public feed, users list, local folder).

@_exported import TesseraGeometry
