/// One kitty upload on its way in chunks, a few at a time across frames, so that what the
/// link holds stays within the pacer's window and a key's answer never waits behind a whole
/// tile (issue 34: a full tile is about 300 kB, more than a second at 2 Mbit/s).
///
/// kitty takes every direct transmission that arrives while one is loading as that one's
/// next chunk (graphics.c, `handle_add_command`), so only one transfer is under way at a time
/// and no other image is transmitted until its last chunk has gone (or
/// ``KittyCommands/endTransmission(passthrough:into:)`` ended it). Placements and deletions
/// of other images may come between its chunks: kitty handles them apart from the load.
///
/// A transfer that replaces an image on screen (a preview by full detail) goes under an id of
/// its own, so the old upload stays shown until the new one is whole: kitty blanks an image
/// the moment a transmission under its id begins.
///
/// - Complexity: the upload is encoded once, O(bytes); each ``write(budget:into:)`` is
///   O(bytes written + commands passed). Memory: the encoded upload until it has gone.
struct KittyTransfer {
  /// The app's image.
  let imageID: UInt64
  /// The kitty id it goes under.
  let id: UInt32
  /// The kitty id showing the image until this transfer completes, freed then.
  let replaces: UInt32?
  /// What kitty holds under ``id`` once it is whole.
  let upload: KittyLayer.Upload
  /// Pixels uploaded (the upload budget's cost).
  let pixels: Int
  /// The animation's loop count, when the upload is one: its start is repeated after it.
  let animationLoops: Int?
  private let bytes: [UInt8]
  /// Where each command ends in ``bytes``, ascending; the last is `bytes.count`.
  private let commandEnds: [Int]
  private var sent = 0
  private var commandsSent = 0

  init(
    imageID: UInt64, id: UInt32, replaces: UInt32?, upload: KittyLayer.Upload, pixels: Int,
    animationLoops: Int?, bytes: [UInt8], commandEnds: [Int]
  ) {
    self.imageID = imageID
    self.id = id
    self.replaces = replaces
    self.upload = upload
    self.pixels = pixels
    self.animationLoops = animationLoops
    self.bytes = bytes
    // A command end past the bytes, or out of order, would slice outside them.
    var ends = commandEnds.filter { $0 > 0 && $0 < bytes.count }
    ends.append(bytes.count)
    self.commandEnds = ends.sorted()
  }

  /// Whether every chunk has been written.
  var isComplete: Bool { sent >= bytes.count }

  /// Bytes in all.
  var bytesTotal: Int { bytes.count }

  /// Bytes still to write.
  var remaining: Int { bytes.count - sent }

  /// Writes whole commands while fewer than `budget` bytes went out, at least one when the
  /// budget is positive (so a window smaller than a chunk still moves). Returns the bytes
  /// written.
  mutating func write(budget: Int, into out: inout ByteWriter) -> Int {
    guard budget > 0, !isComplete else { return 0 }
    let start = sent
    repeat {
      let end = commandEnds[commandsSent]
      out.append(bytes[sent..<end])
      sent = end
      commandsSent += 1
    } while !isComplete && sent - start < budget
    return sent - start
  }
}
