// The feed + image server: the gallery's embedded default and the tests' real HTTP peer.

@_exported import TesseraGeometry
@_exported import TesseraImageSynthesis
