import Foundation
import TesseraSimulation
import Testing

/// The same seed gives the same output, to the byte; another seed does not.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct DeterminismTests {
  /// A short user with everything random in play: the standard network (long-tail latency,
  /// stalls, shared bandwidth, failures), flings both ways, a refresh, a slow drag.
  static let script: [ScrollAction] = [
    .wait(milliseconds: 400),
    .fling(unitsPerMillisecond: 0.8),
    .wait(milliseconds: 700),
    .fling(unitsPerMillisecond: -0.5),
    .wait(milliseconds: 400),
    .refresh(newItems: 12),
    .dragSlowly(unitsPerMillisecond: 0.03, milliseconds: 500),
    .wait(milliseconds: 900),
  ]

  static func json(seed: UInt64, layouts: [LayoutKind]) async throws -> String {
    try await run(seed: seed, layouts: layouts).json
  }

  static func run(
    seed: UInt64, layouts: [LayoutKind] = LayoutKind.allCases
  ) async throws -> (
    json: String, results: [SimulationResult]
  ) {
    let library = SimulatedPhotoLibrary()
    var results: [SimulationResult] = []
    for layout in layouts {
      for strategy in StrategyKind.allCases {
        let configuration = SimulationConfiguration(
          layout: layout, items: 400, seed: seed, script: script)
        results.append(
          try await ScrollSimulator.run(configuration, strategy: strategy, library: library))
      }
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return (String(decoding: try encoder.encode(results), as: UTF8.self), results)
  }

  @Test func theSameSeedGivesTheSameJSONTwice() async throws {
    let first = try await Self.run(seed: 3)
    let second = try await Self.run(seed: 3)
    #expect(first.json == second.json)
    // The runs did something worth comparing: every one downloaded, naive showed wrong
    // images, tessera none.
    #expect(first.results.allSatisfy { $0.downloadsStarted > 0 && $0.itemsShown > 0 })
    #expect(first.results.filter { $0.strategy == .naive }.allSatisfy { $0.wrongFrames > 0 })
    #expect(first.results.filter { $0.strategy == .tessera }.allSatisfy { $0.wrongFrames == 0 })
  }

  /// One layout is enough to tell two seeds apart (the whole set costs a minute under
  /// AddressSanitizer).
  @Test func anotherSeedGivesOtherNumbers() async throws {
    let layouts = Array(LayoutKind.allCases.prefix(1))
    let first = try await Self.json(seed: 3, layouts: layouts)
    let other = try await Self.json(seed: 4, layouts: layouts)
    #expect(first != other)
  }
}
