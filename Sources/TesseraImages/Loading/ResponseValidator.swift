import Foundation
import TesseraPhotoFormats
import TesseraUtilities

/// The checks every response passes before its bytes are cached or decoded, whichever loader
/// fetched it: a 2xx status, an image content type (or, with none or a generic one, bytes
/// that start like an image), and a body within the byte limit.
enum ResponseValidator {
  /// Content types that say nothing about the bytes: sniff instead.
  private static let genericTypes: Set<String> = [
    "application/octet-stream", "binary/octet-stream", "application/unknown",
  ]

  static func validate(_ response: DataResponse, maxBytes: Int) throws(ImagePipelineError) {
    guard (200..<300).contains(response.statusCode) else {
      throw .badStatus(response.statusCode)
    }
    guard response.data.count <= maxBytes else {
      throw .tooLarge(.bytes(response.data.count, limit: maxBytes))
    }
    let declared = response.contentType
    let mime = declared.map(mimeType(of:))
    if let mime, mime.hasPrefix("image/") { return }
    if mime == nil || genericTypes.contains(mime ?? ""),
      ImageSignature(sniffing: response.data) != nil
    {
      return
    }
    throw .notAnImage(contentType: declared)
  }

  /// "Image/JPEG; charset=x" → "image/jpeg".
  static func mimeType(of contentType: String) -> String {
    let base = contentType.split(separator: ";", maxSplits: 1).first ?? ""
    return base.trimmingCharacters(in: .whitespaces).lowercased()
  }
}
