// The RAW maker lives in TesseraImageSynthesis, which the bench can depend on; the tests keep
// finding it through their support module, as before it moved.
@_exported import enum TesseraImageSynthesis.RawFixtures
