// The local photo library: the streaming folder walk, photo headers (EXIF, HEIF and the image
// formats' sizes), the catalog of a walk's photos, the stored facts of a second look, and
// their order and sections.

@_exported import TesseraGeometry

@_exported import enum TesseraUtilities.FeedLimits
