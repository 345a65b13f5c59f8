/// The kitty graphics protocol's escape codes (`ESC _ G keys ; payload ESC \`), as bytes.
///
/// Every command sets `q=2` so the terminal sends no replies the input parser would have to
/// swallow. Inside tmux each code is wrapped in a DCS passthrough with its ESCs doubled.
enum KittyCommands {
  /// Base64 bytes per chunk: the protocol's maximum, a multiple of 4.
  static let chunkSize = 4096

  /// Uploads `bitmap` as image `id` without showing it (`a=t`), or, with `frameGap`, as
  /// the next frame of image `id`'s animation (`a=f`, shown for `frameGap` milliseconds), in
  /// chunks, encoded as `format` says; RGB when opaque (a quarter fewer bytes), RGBA
  /// otherwise. O(pixels), plus compression for ``KittyPayloadFormat/zlib`` and
  /// ``KittyPayloadFormat/png``.
  static func transmit(
    id: UInt32, bitmap: Bitmap, format: KittyPayloadFormat = .png, frameGap: Int? = nil,
    passthrough: Bool, into out: inout ByteWriter
  ) {
    var commandEnds: [Int] = []
    transmit(
      id: id, bitmap: bitmap, format: format, frameGap: frameGap, passthrough: passthrough,
      into: &out, commandEnds: &commandEnds)
  }

  /// ``transmit(id:bitmap:format:frameGap:passthrough:into:)``, noting in `commandEnds` where
  /// in `out` each chunk's command ends: the places an upload may pause (``KittyTransfer``);
  /// a palette PNG of at most `colours` colours.
  static func transmit(
    id: UInt32, bitmap: Bitmap, format: KittyPayloadFormat = .png, frameGap: Int? = nil,
    colours: Int = SixelPalette.largestPalette, passthrough: Bool, into out: inout ByteWriter,
    commandEnds: inout [Int]
  ) {
    transmit(
      id: id, payload: Payload(bitmap, format: format, colours: colours), frameGap: frameGap,
      passthrough: passthrough, into: &out, commandEnds: &commandEnds)
  }

  /// An upload's pixels as they go on the wire, base64 included: made apart from the commands
  /// that carry them (which name the image's id), so that it may be made on another thread
  /// ahead of the frame that sends it (``EncodeAhead``).
  struct Payload: Sendable {
    let width: Int
    let height: Int
    let opaque: Bool
    /// What the bytes are: the format asked for, or raw should it fail.
    let format: KittyPayloadFormat
    let base64: [UInt8]

    /// `bitmap` encoded as `format` says (a palette PNG of at most `colours` colours); RGB
    /// when opaque (a quarter fewer bytes), RGBA otherwise. Should zlib or libpng fail (out of
    /// memory), the pixels go raw: larger, never lost. O(pixels) plus compression.
    init(_ bitmap: Bitmap, format: KittyPayloadFormat, colours: Int = SixelPalette.largestPalette) {
      let opaque = bitmap.isOpaque
      let data: [UInt8]
      if let payload = format.encode(bitmap, opaque: opaque, colours: colours) {
        (self.format, data) = (format, payload)
      } else {
        (self.format, data) = (.raw, KittyPayloadFormat.samples(of: bitmap, opaque: opaque))
      }
      var encoded: [UInt8] = []
      Base64.encode(data[...], into: &encoded)
      (width, height, self.opaque, base64) = (bitmap.width, bitmap.height, opaque, encoded)
    }
  }

  /// Chunks a passthrough sequence carries. tmux writes about 110 bytes of its own (`ESC ( B`,
  /// `CSI m`, cursor and mouse modes, the scroll region, a cursor move) after every
  /// passthrough sequence: one a chunk was 77 kB of the 1.85 MB a kitty first screen took
  /// through tmux at 2 Mbit/s (`tessera bench link --in-tmux`), 4 % of it. Four a sequence
  /// is 16 kB, 64 ms at that rate: what a key may wait behind, as tmux forwards a sequence
  /// only once all of it arrived.
  static let chunksPerPassthrough = 4

  /// Uploads `payload` as image `id` (`a=t`), or, with `frameGap`, as the next frame of image
  /// `id`'s animation (`a=f`), in chunks, noting in `commandEnds` where in `out` each chunk's
  /// command ends (through passthrough: each sequence of ``chunksPerPassthrough`` chunks).
  /// O(payload).
  static func transmit(
    id: UInt32, payload: Payload, frameGap: Int? = nil, passthrough: Bool,
    into out: inout ByteWriter, commandEnds: inout [Int]
  ) {
    let encoded = payload.base64
    var offset = 0
    var first = true
    var group = ByteWriter()
    var grouped = 0
    repeat {
      let end = min(encoded.count, offset + chunkSize)
      let more = end < encoded.count
      var keys = ByteWriter()
      if first {
        transmissionKeys(
          medium: "d", formatCode: payload.format.isPNG ? 100 : payload.opaque ? 24 : 32,
          zlib: payload.format == .zlib, width: payload.width, height: payload.height, id: id,
          frameGap: frameGap, into: &keys)
        keys.append(",")
      }
      keys.append(more ? "m=1" : "m=0")
      if !first { keys.append(",q=2") }
      if passthrough {
        plainCommand(keys.bytes, payload: encoded[offset..<end], into: &group)
        grouped += 1
        if grouped == chunksPerPassthrough || !more {
          TmuxPassthrough.wrap(group.bytes, into: &out)
          commandEnds.append(out.count)
          (group, grouped) = (ByteWriter(), 0)
        }
      } else {
        plainCommand(keys.bytes, payload: encoded[offset..<end], into: &out)
        commandEnds.append(out.count)
      }
      offset = end
      first = false
    } while offset < encoded.count
  }

  /// Uploads `bitmap` as image `id` (or, with `frameGap`, its next animation frame) through a
  /// temporary file the terminal reads and deletes (`t=t`): raw RGB or RGBA in the file, only
  /// its path in the escape code. False when the file could not be written (nothing was sent;
  /// send it with ``transmit(id:bitmap:format:frameGap:passthrough:into:)``). O(pixels), no
  /// compression.
  static func transmitFile(
    id: UInt32, bitmap: Bitmap, frameGap: Int? = nil, passthrough: Bool,
    into out: inout ByteWriter
  ) -> Bool {
    let opaque = bitmap.isOpaque
    let path = KittyLocalFiles.newPath()
    guard KittyLocalFiles.write(KittyPayloadFormat.samples(of: bitmap, opaque: opaque), to: path)
    else { return false }
    var keys = ByteWriter()
    transmissionKeys(
      medium: "t", formatCode: opaque ? 24 : 32, zlib: false, width: bitmap.width,
      height: bitmap.height, id: id, frameGap: frameGap, into: &keys)
    var encoded: [UInt8] = []
    Base64.encode(Array(path.utf8)[...], into: &encoded)
    command(keys.bytes, payload: encoded[...], passthrough: passthrough, into: &out)
    return true
  }

  /// `a=t` (an image) or `a=f,z=gap` (a frame of one), then the medium, pixel format and
  /// compression, size and id, quietly.
  private static func transmissionKeys(
    medium: String, formatCode: Int, zlib: Bool, width: Int, height: Int, id: UInt32,
    frameGap: Int?, into keys: inout ByteWriter
  ) {
    if let frameGap {
      keys.append("a=f,z=")
      keys.decimal(frameGap)
    } else {
      keys.append("a=t")
    }
    keys.append(",t=")
    keys.append(medium)
    keys.append(",f=")
    keys.decimal(formatCode)
    if zlib { keys.append(",o=z") }
    keys.append(",s=")
    keys.decimal(width)
    keys.append(",v=")
    keys.decimal(height)
    keys.append(",i=")
    keys.decimal(Int(id))
    keys.append(",q=2")
  }

  /// Sets how long image `id`'s first frame shows (`a=a,r=1,z=`): frames sent with `a=f`
  /// carry their own gaps, the root frame's is set apart.
  static func setFirstFrameGap(
    id: UInt32, milliseconds: Int, passthrough: Bool, into out: inout ByteWriter
  ) {
    animationControl(id: id, "r=1,z=", milliseconds, passthrough: passthrough, into: &out)
  }

  /// Runs image `id`'s animation (`a=a,s=3`) `loopCount` times, 0 forever (kitty's `v` is
  /// one more than the loops: 1 plays forever).
  static func runAnimation(
    id: UInt32, loopCount: Int, passthrough: Bool, into out: inout ByteWriter
  ) {
    animationControl(id: id, "s=3,v=", loopCount + 1, passthrough: passthrough, into: &out)
  }

  /// `a=a,i=ID,` then `keys` ending in a number's key, the number, quietly.
  private static func animationControl(
    id: UInt32, _ keys: String, _ number: Int, passthrough: Bool, into out: inout ByteWriter
  ) {
    var command = ByteWriter()
    command.append("a=a,i=")
    command.decimal(Int(id))
    command.append(",")
    command.append(keys)
    command.decimal(number)
    command.append(",q=2")
    Self.command(command.bytes, payload: nil, passthrough: passthrough, into: &out)
  }

  /// The image id of the local-file probe (``localFileQuery(path:)``).
  static let localFileProbeID = 32

  /// Asks whether the terminal can read a file on this machine: a 1×1 RGB image in the
  /// temporary file at `path`, id 32, `a=q` (queried, never stored). A terminal that read it
  /// answers OK (and deletes the file); one elsewhere (SSH) cannot open it and answers an
  /// error, as kitty's `icat` tells local from remote.
  static func localFileQuery(path: String) -> [UInt8] {
    var encoded: [UInt8] = []
    Base64.encode(Array(path.utf8)[...], into: &encoded)
    var out = ByteWriter()
    var keys = ByteWriter()
    keys.append("i=")
    keys.decimal(localFileProbeID)
    keys.append(",s=1,v=1,a=q,t=t,f=24")
    command(keys.bytes, payload: encoded[...], passthrough: false, into: &out)
    return out.bytes
  }

  /// A source rectangle in image pixels.
  struct SourceRect: Hashable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
  }

  /// Shows image `id` at the cursor over `columns × rows` cells as placement `placement`
  /// (replacing any placement with the same ids: that is how it moves), cropped to `source`
  /// when given. `C=1` leaves the cursor where it was.
  static func place(
    id: UInt32, placement: UInt32, columns: Int, rows: Int, source: SourceRect?,
    passthrough: Bool, into out: inout ByteWriter
  ) {
    var keys = ByteWriter()
    keys.append("a=p,i=")
    keys.decimal(Int(id))
    keys.append(",p=")
    keys.decimal(Int(placement))
    if let source {
      keys.append(",x=")
      keys.decimal(source.x)
      keys.append(",y=")
      keys.decimal(source.y)
      keys.append(",w=")
      keys.decimal(source.width)
      keys.append(",h=")
      keys.decimal(source.height)
    }
    keys.append(",c=")
    keys.decimal(columns)
    keys.append(",r=")
    keys.decimal(rows)
    keys.append(",C=1,q=2")
    command(keys.bytes, payload: nil, passthrough: passthrough, into: &out)
  }

  /// A virtual placement for Unicode placeholders (`U=1`): the image appears wherever the
  /// placeholder cells carrying its id are written.
  static func placeVirtual(
    id: UInt32, columns: Int, rows: Int, passthrough: Bool, into out: inout ByteWriter
  ) {
    var keys = ByteWriter()
    keys.append("a=p,U=1,i=")
    keys.decimal(Int(id))
    keys.append(",c=")
    keys.decimal(columns)
    keys.append(",r=")
    keys.decimal(rows)
    keys.append(",q=2")
    command(keys.bytes, payload: nil, passthrough: passthrough, into: &out)
  }

  /// Removes one placement and keeps the image data (`d=i`, lowercase), so showing it again
  /// costs a placement, not an upload.
  static func hide(id: UInt32, placement: UInt32, passthrough: Bool, into out: inout ByteWriter) {
    var keys = ByteWriter()
    keys.append("a=d,d=i,i=")
    keys.decimal(Int(id))
    keys.append(",p=")
    keys.decimal(Int(placement))
    keys.append(",q=2")
    command(keys.bytes, payload: nil, passthrough: passthrough, into: &out)
  }

  /// Frees image `id` and its placements (`d=I`).
  static func free(id: UInt32, passthrough: Bool, into out: inout ByteWriter) {
    var keys = ByteWriter()
    keys.append("a=d,d=I,i=")
    keys.decimal(Int(id))
    keys.append(",q=2")
    command(keys.bytes, payload: nil, passthrough: passthrough, into: &out)
  }

  /// Removes every placement on the screen and keeps the images (`d=a`, lowercase).
  static func hideAll(passthrough: Bool, into out: inout ByteWriter) {
    command(Array("a=d,d=a,q=2".utf8), payload: nil, passthrough: passthrough, into: &out)
  }

  /// Ends the direct transmission kitty is loading with an empty last chunk (`m=0`): the
  /// upload then fails to decode and is dropped, and the next transmission starts a new
  /// image instead of continuing it (``KittyTransfer``). With no transmission loading it is
  /// an empty image kitty refuses, quietly.
  static func endTransmission(passthrough: Bool, into out: inout ByteWriter) {
    command(Array("m=0,q=2".utf8), payload: nil, passthrough: passthrough, into: &out)
  }

  /// Frees every image (`d=A`): sent when the app leaves the terminal.
  static func freeAll(passthrough: Bool, into out: inout ByteWriter) {
    command(Array("a=d,d=A,q=2".utf8), payload: nil, passthrough: passthrough, into: &out)
  }

  /// The support query: a 1×1 image id 31 with `a=q`; a kitty-capable terminal answers OK.
  static let query: [UInt8] = Array("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\".utf8)

  private static func command(
    _ keys: [UInt8], payload: ArraySlice<UInt8>?, passthrough: Bool, into out: inout ByteWriter
  ) {
    guard passthrough else {
      plainCommand(keys, payload: payload, into: &out)
      return
    }
    var inner = ByteWriter(capacity: keys.count + (payload?.count ?? 0) + 8)
    plainCommand(keys, payload: payload, into: &inner)
    TmuxPassthrough.wrap(inner.bytes, into: &out)
  }

  /// `ESC _ G keys ; payload ESC \`, as the terminal itself reads it.
  static func plainCommand(
    _ keys: [UInt8], payload: ArraySlice<UInt8>?, into out: inout ByteWriter
  ) {
    out.append(0x1B)
    out.append("_G")
    out.append(keys)
    if let payload {
      out.append(UInt8(ascii: ";"))
      out.append(payload)
    }
    out.append([0x1B, 0x5C])
  }
}
