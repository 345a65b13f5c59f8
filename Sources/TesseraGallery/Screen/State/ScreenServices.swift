import TesseraImages
import TesseraPhotoLibrary

/// What the screen acts on outside itself, set by the launcher and the run loop (and by tests,
/// with stand-ins): the terminal between frames, the desktop's opener, the key-handler, the
/// Trash, and the run loop's wake-up.
@MainActor
struct ScreenServices {
  /// Writes bytes to the terminal between frames (OSC 52 for `y`).
  var writeToTerminal: (@MainActor ([UInt8]) -> Void)?
  /// Runs `xdg-open` (or a test's stand-in) on a path; answers what to tell the person.
  var openExternally: @MainActor (String) -> String = { ExternalOpener.open($0) }
  /// Runs the key-handler; the run loop lends it the terminal.
  var keyHandler = KeyHandler()
  /// Moves photos to the Trash and back (`d`, `u`).
  var trash = FreedesktopTrash()
  /// Starts decoding a video (an `ffmpeg` process, or a test's stand-in that holds and
  /// releases frames); the closure it is given is called from any thread when frames come.
  var startVideo:
    @MainActor (VideoStream.Request, @escaping @Sendable () -> Void) throws(ImagePipelineError)
      -> any VideoFrameSource = { request, onChange throws(ImagePipelineError) in
        try VideoStream(request, onChange: onChange)
      }
  /// What a video's length and rate are (`ffprobe`); called off the main actor.
  var probeVideo: @Sendable (String, Int64, Int64?) -> VideoProbe = {
    VideoProbe.probe(path: $0, byteOffset: $1, byteLength: $2)
  }
  /// Called when `needsDisplay` turns true.
  var onNeedsDisplay: (@MainActor () -> Void)?
}
