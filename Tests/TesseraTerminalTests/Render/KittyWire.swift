import Foundation

/// What a kitty terminal would hold after reading the renderer's bytes: the images uploaded
/// (decoded from raw, `o=z` or PNG payloads) and the placements shown, each with the part of
/// the image it shows and the cells it covers. Tests check what a person would see through
/// it, not the bytes.
struct KittyWire {
  struct Image {
    var width: Int
    var height: Int
    var rgba: [UInt8]
    var format: String

    func pixel(_ x: Int, _ y: Int) -> [UInt8] {
      Array(rgba[((y * width + x) * 4)..<((y * width + x) * 4 + 4)])
    }
  }

  struct Placement {
    var id: Int
    var columns: Int
    var rows: Int
    /// The image pixels shown: x, y, w, h (the whole image when the command names none).
    var source: (x: Int, y: Int, width: Int, height: Int)
  }

  /// An animation's state as kitty keeps it: its frames after the first, each with its gap,
  /// the first frame's gap, and the `a=a` commands that ran it (`s` and `v` keys).
  struct Animation {
    var frames: [(image: Image, gap: Int)] = []
    var firstGap: Int?
    var runs: [(state: Int, loops: Int)] = []
  }

  var images: [Int: Image] = [:]
  var animations: [Int: Animation] = [:]
  var placements: [Placement] = []
  var uploads = 0
  /// The placements kitty holds now, by image: what a deletion in kitty before 0.38.1 spares.
  private var live: [Int: Set<Int>] = [:]
  /// kitty's image table's order: an image joins at its end when its first upload begins.
  private var order: [Int: Int] = [:]
  private var created = 0
  private var pending: (keys: [String: String], payload: String)?

  /// The keys and payload of every graphics command (`ESC _ G … ESC \`) in `bytes`.
  static func commands(in bytes: [UInt8]) -> [(keys: [String: String], payload: String)] {
    let text = String(decoding: bytes, as: UTF8.self)
    var result: [(keys: [String: String], payload: String)] = []
    for piece in text.components(separatedBy: "\u{1B}_G").dropFirst() {
      guard let end = piece.range(of: "\u{1B}\\") else { continue }
      let body = piece[..<end.lowerBound]
      let parts = body.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
      var keys: [String: String] = [:]
      for pair in parts[0].split(separator: ",") {
        let kv = pair.split(separator: "=", maxSplits: 1)
        if kv.count == 2 { keys[String(kv[0])] = String(kv[1]) }
      }
      result.append((keys, parts.count > 1 ? String(parts[1]) : ""))
    }
    return result
  }

  /// As kitty reads them: while an upload is loading, a direct transmission is its next chunk
  /// (an empty last one ends it undecoded); placements are handled apart, but any deletion
  /// drops the load under way (kitty 0.26.5 under Xvfb: a tile whose upload had a `d=I` of
  /// another image between its chunks stayed blank). A new upload under an id empties it at
  /// once; `d=I` and `d=A` free images.
  mutating func apply(_ bytes: [UInt8]) throws {
    for (keys, payload) in Self.commands(in: bytes) {
      let transmission = ["t", "T", nil].contains(keys["a"]) && (keys["t"] ?? "d") == "d"
      if var open = pending, transmission {
        open.payload += payload
        pending = keys["m"] == "1" ? open : nil
        if keys["m"] != "1" {
          if payload.isEmpty { continue }
          try finishUpload(open.keys, open.payload)
        }
        continue
      }
      switch keys["a"] {
      case "a":
        guard let id = Int(keys["i"] ?? ""), images[id] != nil else {
          throw WireDecoding.Failure(description: "animation control of an image never uploaded")
        }
        if keys["r"] == "1", let gap = Int(keys["z"] ?? "") {
          animations[id, default: .init()].firstGap = gap
        }
        if let state = Int(keys["s"] ?? "") {
          animations[id, default: .init()].runs.append((state, Int(keys["v"] ?? "0") ?? 0))
        }
      case "t", "f":
        if keys["a"] == "t", let id = Int(keys["i"] ?? "") {
          images[id] = nil
          if order[id] == nil {
            created += 1
            order[id] = created
          }
        }
        if keys["m"] == "1" {
          pending = (keys, payload)
        } else {
          try finishUpload(keys, payload)
        }
      case "p":
        guard let id = Int(keys["i"] ?? ""), let image = images[id] else {
          throw WireDecoding.Failure(description: "placement of an image never uploaded")
        }
        let whole = (0, 0, image.width, image.height)
        let source =
          keys["w"] == nil
          ? whole
          : (
            Int(keys["x"] ?? "0") ?? 0, Int(keys["y"] ?? "0") ?? 0, Int(keys["w"]!) ?? 0,
            Int(keys["h"]!) ?? 0
          )
        live[id, default: []].insert(Int(keys["p"] ?? "0") ?? 0)
        placements.append(
          Placement(
            id: id, columns: Int(keys["c"] ?? "") ?? 0, rows: Int(keys["r"] ?? "") ?? 0,
            source: source))
      case "d":
        pending = nil
        // Freeing drops the image; the placements stay in the log they are.
        let id = Int(keys["i"] ?? "")
        switch keys["d"] {
        case "i":
          if let id, let placement = keys["p"].flatMap(Int.init) {
            live[id]?.remove(placement)
          } else if let id {
            live[id] = nil
          }
        case "a": live.removeAll()
        case "I":
          guard let id else { break }
          // kitty before 0.38.1 (graphics.c `filter_refs`) frees, walking its table from the
          // newest image to the one named, every image without a placement on the way; an id
          // it does not hold matches nothing, and every image without a placement goes.
          let from = order[id] ?? 0
          let taken = order.filter { $0.value >= from && (live[$0.key]?.isEmpty ?? true) }
          for (other, _) in taken {
            images[other] = nil
            order[other] = nil
            live[other] = nil
          }
          images[id] = nil
          order[id] = nil
          live[id] = nil
        case "A":
          images.removeAll()
          order.removeAll()
          live.removeAll()
        default: break
        }
      default: break
      }
    }
  }

  private mutating func finishUpload(_ keys: [String: String], _ payload: String) throws {
    guard let id = Int(keys["i"] ?? ""), let data = Data(base64Encoded: payload) else {
      throw WireDecoding.Failure(description: "an upload without an id or valid base64")
    }
    var bytes = [UInt8](data)
    uploads += 1
    var medium = keys["o"] == "z" ? "zlib" : "raw"
    if keys["t"] == "t" {
      // As kitty does: read the temporary file the payload names, then delete it.
      let path = String(decoding: bytes, as: UTF8.self)
      guard path.contains("tty-graphics-protocol"),
        let contents = FileManager.default.contents(atPath: path)
      else { throw WireDecoding.Failure(description: "no readable temporary file at \(path)") }
      try FileManager.default.removeItem(atPath: path)
      bytes = [UInt8](contents)
      medium = "file"
    }
    let format = keys["f"] ?? "32"
    if format == "100" {
      let png = try WireDecoding.png(bytes)
      try store(
        Image(width: png.width, height: png.height, rgba: png.rgba, format: "png"), id: id,
        keys: keys)
      return
    }
    let width = Int(keys["s"] ?? "") ?? 0
    let height = Int(keys["v"] ?? "") ?? 0
    let raw = keys["o"] == "z" ? try WireDecoding.zlib(bytes) : bytes
    let channels = format == "24" ? 3 : 4
    guard raw.count == width * height * channels else {
      throw WireDecoding.Failure(description: "\(raw.count) pixel bytes for \(width)x\(height)")
    }
    try store(
      Image(
        width: width, height: height, rgba: WireDecoding.rgba(raw, channels: channels),
        format: medium), id: id, keys: keys)
  }

  /// `a=t` replaces the image (and drops its frames); `a=f` adds a frame to it.
  private mutating func store(_ image: Image, id: Int, keys: [String: String]) throws {
    guard keys["a"] == "f" else {
      images[id] = image
      animations[id] = nil
      return
    }
    guard let root = images[id], root.width == image.width, root.height == image.height else {
      throw WireDecoding.Failure(
        description: "a frame for image \(id), never uploaded or of another size")
    }
    animations[id, default: .init()].frames.append((image, Int(keys["z"] ?? "") ?? 0))
  }
}
