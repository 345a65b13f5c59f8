import ArgumentParser

/// `tessera bench`: every benchmark owns its `--json`; with no subcommand, `all` runs.
package struct Bench: AsyncParsableCommand {
  package static let configuration = CommandConfiguration(
    abstract: "Measure the pipeline, the layout engine, rendering and the seeds' scroll race.",
    subcommands: [
      AllBench.self, PipelineBench.self, LayoutBench.self, RenderBench.self, ScrollBench.self,
      LibraryBench.self,
      IdleBench.self,
      FolderBench.self,
      CullBench.self,
      LinkBench.self,
    ],
    defaultSubcommand: AllBench.self
  )

  package init() {}
}
