import TesseraSimulation
import Testing

/// Bad configurations are refused with a typed error, never a crash.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct ConfigurationTests {
  @Test(arguments: [0, -5])
  func noItemsIsRefused(items: Int) async {
    let configuration = SimulationConfiguration(layout: .grid, items: items, script: [])
    await #expect(throws: SimulationError.invalidConfiguration("items must be at least 1")) {
      _ = try await ScrollSimulator.run(
        configuration, strategy: .seed, library: SimulatedPhotoLibrary())
    }
  }

  @Test func aZeroFrameIntervalIsRefused() async {
    var configuration = SimulationConfiguration(layout: .list, items: 10, script: [])
    configuration.frameMilliseconds = 0
    await #expect(throws: SimulationError.self) {
      _ = try await ScrollSimulator.run(
        configuration, strategy: .naive, library: SimulatedPhotoLibrary())
    }
  }

  /// The standard user lasts about 26 s and refreshes once, with 24 new items.
  @Test func theStandardScriptHasItsShape() {
    let script = ScrollAction.standardScript(seed: 1)
    #expect(script.filter { if case .refresh = $0 { true } else { false } }.count == 1)
    #expect(script.contains(.refresh(newItems: 24)))
    #expect(script == ScrollAction.standardScript(seed: 1))
    #expect(script != ScrollAction.standardScript(seed: 2))
  }
}
