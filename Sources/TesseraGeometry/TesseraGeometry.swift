// Small value types every Tessera module shares (`PixelSize`, `RGB`). No dependencies: the
// library modules re-export it, so a client sees one `PixelSize` through any of them.
