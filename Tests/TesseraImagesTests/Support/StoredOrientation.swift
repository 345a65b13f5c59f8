/// Where stored pixel (x, y) of a `rawWidth`×`rawHeight` image shows once EXIF `orientation`
/// is applied (TIFF/EXIF 6.0, tag 274), written from the standard's table: the tests' own
/// account, independent of the pipeline's inverse mapping.
func shownPosition(
  _ orientation: Int, _ x: Int, _ y: Int, rawWidth: Int, rawHeight: Int
) -> (Int, Int) {
  switch orientation {
  case 2: (rawWidth - 1 - x, y)
  case 3: (rawWidth - 1 - x, rawHeight - 1 - y)
  case 4: (x, rawHeight - 1 - y)
  case 5: (y, x)
  case 6: (rawHeight - 1 - y, x)
  case 7: (rawHeight - 1 - y, rawWidth - 1 - x)
  case 8: (y, rawWidth - 1 - x)
  default: (x, y)
  }
}
