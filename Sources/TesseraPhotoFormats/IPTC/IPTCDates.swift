/// The date taken in IPTC-IIM datasets (the Photoshop 0x0404 resource of a JPEG's APP13):
/// dataset 2:55 DateCreated ("CCYYMMDD") with 2:60 TimeCreated ("HHMMSS±HHMM"). The zone is
/// ignored, as XMP's is (`XMPDates`): the clock reading is the local time taken. A date
/// without a time is that day's midnight. Validated by `WallClockTime(exif:)`, as EXIF's dates
/// are.
///
/// - Complexity: O(datasets), at most ``maxDatasets``.
enum IPTCDates {
  static let maxDatasets = 1_024

  static func taken(_ iim: [UInt8]) -> WallClockTime? {
    var date: [UInt8]?
    var time: [UInt8]?
    var index = 0
    var count = 0
    // Each dataset: tag marker 0x1C, record, dataset, a 2-byte length (high bit set: an
    // extended length, which no date needs; the walk stops there).
    while index <= iim.count - 5, iim[index] == 0x1C, count < maxDatasets {
      count += 1
      let record = iim[index + 1]
      let dataset = iim[index + 2]
      let length = Int(iim[index + 3]) << 8 | Int(iim[index + 4])
      guard length & 0x8000 == 0, length <= iim.count - index - 5 else { break }
      let value = Array(iim[(index + 5)..<(index + 5 + length)])
      if record == 2, dataset == 55, date == nil { date = value }
      if record == 2, dataset == 60, time == nil { time = value }
      index += 5 + length
    }
    guard let date, date.count == 8 else { return nil }
    var clock: [UInt8] = Array("000000".utf8)
    if let time, time.count >= 6 { clock = Array(time[0..<6]) }
    let text =
      String(decoding: date[0..<4], as: UTF8.self) + ":"
      + String(decoding: date[4..<6], as: UTF8.self)
      + ":" + String(decoding: date[6..<8], as: UTF8.self) + " "
      + String(decoding: clock[0..<2], as: UTF8.self) + ":"
      + String(decoding: clock[2..<4], as: UTF8.self) + ":"
      + String(decoding: clock[4..<6], as: UTF8.self)
    return WallClockTime(exif: text)
  }
}
