import ServiceLifecycle

extension ImagePipeline {
  /// Ends the pipeline: every load still running or waiting fails with `.shutDown`, as does
  /// every later one, and the data loader releases its connections and threads (its HTTP
  /// client is shut down and awaited, not left to a `deinit`). Caches keep what they hold.
  /// The default data loader of `Configuration()` is the process's and lives on.
  public func shutdown() async {
    core.shutDown()
    await configuration.dataLoader.shutdown()
  }
}

/// A pipeline as a swift-service-lifecycle service: it serves until the group shuts down
/// gracefully, then shuts the pipeline down (`ImagePipeline.shutdown()`).
///
/// ```swift
/// let group = ServiceGroup(
///   services: [ImagePipelineService(pipeline), server], logger: logger)
/// try await group.run()
/// ```
public struct ImagePipelineService: Service {
  /// The pipeline it ends.
  public let pipeline: ImagePipeline

  /// The service of `pipeline`.
  public init(_ pipeline: ImagePipeline) {
    self.pipeline = pipeline
  }

  /// Waits for the group's graceful shutdown (or cancellation), then ends the pipeline.
  public func run() async throws {
    try? await gracefulShutdown()
    await pipeline.shutdown()
  }
}
