// The image pipeline: request → memory cache → coalesced task → disk cache → data loader →
// decoder (shrink-on-load) → memory cache → delivery. See `ImagePipeline`.

@_exported import TesseraGeometry
