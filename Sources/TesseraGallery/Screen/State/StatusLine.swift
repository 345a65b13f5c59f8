/// What the status bar says beside the counts: a message after a key, until the next key
/// ("copied the path"), and what the run loop measured of the link (``LinkStatus``).
struct StatusLine {
  var message: String?
  /// nil locally.
  var link: String?
}
