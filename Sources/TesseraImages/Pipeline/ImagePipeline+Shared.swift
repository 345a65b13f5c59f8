import Foundation
import Logging
import TesseraUtilities

extension ImagePipeline {
  private static let sharedStorage = Locked<ImagePipeline?>(nil)

  /// The process's default pipeline, made on first use: the default data loader
  /// (`Configuration.defaultDataLoader`), a memory cache (`MemoryCache()`), and a disk cache
  /// in `DiskCache.defaultDirectory` (none if that folder cannot be created; the reason is
  /// logged at debug level).
  ///
  /// Configure it once, at start, before anything loads through it:
  ///
  /// ```swift
  /// ImagePipeline.shared = ImagePipeline(configuration: .init(requestTimeout: 10))
  /// ```
  ///
  /// Reading and setting it are thread-safe. A pipeline replaced here finishes the work it
  /// has, and keeps serving whoever still holds it.
  public static var shared: ImagePipeline {
    get {
      sharedStorage.withLock { stored in
        if let pipeline = stored { return pipeline }
        let pipeline = ImagePipeline(configuration: defaultSharedConfiguration())
        stored = pipeline
        return pipeline
      }
    }
    set { sharedStorage.withLock { $0 = newValue } }
  }

  private static func defaultSharedConfiguration() -> Configuration {
    var configuration = Configuration()
    do {
      configuration.diskCache = try DiskCache()
    } catch {
      configuration.logger.debug(
        "the shared pipeline has no disk cache: its folder could not be opened",
        metadata: [
          "folder": "\(DiskCache.defaultDirectory.path)", "error": "\(error)",
        ])
    }
    return configuration
  }
}
