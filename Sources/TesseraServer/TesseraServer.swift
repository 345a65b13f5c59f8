// The feed + image server: the gallery's embedded default and the tests' real HTTP peer.
//
// The folders follow a request: `Routes/` parses and answers it (`FeedRoutes`, image names,
// the request limits), `Catalog/` is what the feed says (photos, users, Flickr's JSON),
// `Faults/` decides and injects failures, `Caching/` holds HTTP validators and the encoded
// images, and `Generation/` bounds the image synthesis (`TesseraImageSynthesis`) and keeps it
// off the cooperative pool.

@_exported import TesseraGeometry
@_exported import TesseraImageSynthesis
