// TesseraCollection: the headless collection engine — data source and delegate in UIKit's
// shape, type-safe reuse, layouts (list, grid, waterfall), scroll physics on an explicit
// clock, visible and prefetch ranges, batch updates by identity, and image binding.
//
// Start at `CollectionView` (View/). It knows nothing of terminals, HTTP or image decoding.
// No type here is named after the module, so `TesseraCollection.IndexPath` can disambiguate
// from Foundation's IndexPath in files that import both.

// `Rect` is the shared one from TesseraGeometry, re-exported so a client needs one import.
@_exported import TesseraGeometry
