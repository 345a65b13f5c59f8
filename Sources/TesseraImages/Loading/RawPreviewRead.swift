import Foundation
import TesseraPhotoFormats
import TesseraUtilities

/// A camera RAW file's bytes, as the pipeline decodes them: its largest embedded JPEG preview
/// (`RawPreviewLocator`: CR2, CR3, NEF, ARW, DNG, ORF, RW2, PEF, RAF, CRW…), as every photo
/// browser shows a RAW, with the RAW's orientation written into it as an EXIF APP1 segment so
/// the JPEG decoders turn it upright like any camera JPEG. The sensor data is never decoded.
///
/// - Complexity: the locator's bounded reads (≤ 4 MiB), then O(the preview's length).
enum RawPreviewRead {
  /// Whether `path` names a RAW file by its extension (RAWs are TIFFs or ISO boxes inside;
  /// only the name tells a CR2 from a TIFF).
  static func isRaw(path: String) -> Bool {
    guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return false }
    return RawPreviewLocator.extensions.contains(path[path.index(after: dot)...].lowercased())
  }

  static func jpeg(atPath path: String, maxFileSize: Int) throws(ImagePipelineError) -> Data {
    let preview: RawPreview
    do {
      preview = try RawPreviewLocator.largestPreview(atPath: path)
    } catch {
      throw .decodingFailed(error.description)
    }
    let read = SafeFileRead.contents(
      path: path, maxFileSize: maxFileSize, offset: preview.offset, count: preview.length)
    guard case .success(let contents) = read, contents.bytes.count == preview.length else {
      throw .decodingFailed("the \(preview.container) file's preview could not be read")
    }
    guard preview.orientation != 1 else { return contents.bytes }
    let marked = ExifWriter(model: nil, orientation: preview.orientation, dateTaken: nil)
      .splicing(into: [UInt8](contents.bytes))
    return Data(marked)
  }
}
