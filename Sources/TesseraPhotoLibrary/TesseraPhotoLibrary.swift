// The local photo library: the streaming folder walk, photo headers (EXIF, HEIF and the image
// formats' sizes), the catalog of a walk's photos, the stored facts of a second look, and
// their order and sections.

@_exported import TesseraGeometry

// What a photo's header says, read by TesseraPhotoFormats' parsers: part of this product's
// public API as before they moved there.
@_exported import struct TesseraPhotoFormats.ExifFacts
@_exported import enum TesseraPhotoFormats.ExifReader
@_exported import struct TesseraPhotoFormats.WallClockTime
@_exported import enum TesseraUtilities.FeedLimits
