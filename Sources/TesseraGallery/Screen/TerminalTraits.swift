/// What the run loop tells the screen about the terminal it draws on, which what plays in the
/// detail view follows.
struct TerminalTraits {
  /// The link's rate as the run loop measures it from the terminal's answers, over SSH or
  /// when writes fall behind; nil when the link is not what limits a frame. A video plays
  /// smaller and slower to fit it.
  var linkBytesPerSecond: Double?
  /// Whether the terminal plays an animation itself once sent (from the renderer): then the
  /// detail view sends its frames once and draws none of them again.
  var playsAnimations = false
}
