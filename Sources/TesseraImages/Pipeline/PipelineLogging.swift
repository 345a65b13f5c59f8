import Foundation
import Logging

/// What the pipeline logs, and at which level. Everything is `.debug`: swift-log's default
/// handler prints `.info` and above to standard error, so a library that logs above debug
/// would write into its host's terminal unasked. An application that wants the lines
/// bootstraps swift-log (or passes a logger in the configuration) at debug level.
extension PipelineCore {
  /// Logs a load that ended in `error`, once per shared job (not once per waiting task).
  /// Cancellations and cache-only misses are not trouble and are not logged.
  func log(_ error: ImagePipelineError, url: URL) {
    let message: Logger.Message
    switch error {
    case .cancelled, .notInCache: return
    case .schemeNotAllowed, .unsupportedFormat, .fileRefused, .tooLarge, .invalidURL:
      message = "image refused"
    default:
      message = "image load failed"
    }
    configuration.logger.debug(
      message, metadata: ["url": "\(url.absoluteString)", "reason": "\(error)"])
  }
}
