// The terminal: raw mode, input, frame buffer with diff redraw, image drawing.
///
// The app builds a ``FrameBuffer`` each frame, hands it with its ``ImagePlacement``s to a
// ``TerminalRenderer`` and writes the returned bytes through a ``TerminalSession``. Input
// arrives as ``InputEvent``s decoded by the pure ``InputParser``.

@_exported import TesseraGeometry

/// A rectangle of terminal cells: the shared ``Rect`` (`TesseraGeometry`), named for its unit.
public typealias CellRect = Rect
