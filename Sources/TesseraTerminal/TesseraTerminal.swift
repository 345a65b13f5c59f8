/// The terminal: raw mode, input, frame buffer with diff redraw, image drawing.
public enum TesseraTerminal {}
