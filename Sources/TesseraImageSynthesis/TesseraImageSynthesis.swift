// Generated photos without HTTP: seeded pictures with their id in digits and an `IdMarker`
// colour band, encoded through libvips, at Flickr's sizes. `TesseraServer` serves them; the
// simulator and the tests make them directly.

@_exported import TesseraGeometry
