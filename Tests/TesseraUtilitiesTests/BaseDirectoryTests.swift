import Testing

@testable import TesseraUtilities

/// The XDG Base Directory rules, one way for every folder Tessera uses.
struct BaseDirectoryTests {
  @Test func anAbsoluteVariableWinsARelativeOneIsIgnored() {
    let home = ["HOME": "/home/ann"]
    #expect(BaseDirectory.cache.path(environment: home) == "/home/ann/.cache")
    #expect(BaseDirectory.config.path(environment: home) == "/home/ann/.config")
    #expect(BaseDirectory.data.path(environment: home) == "/home/ann/.local/share")
    #expect(BaseDirectory.state.path(environment: home) == "/home/ann/.local/state")
    #expect(
      BaseDirectory.state.path(environment: ["HOME": "/home/ann", "XDG_STATE_HOME": "/s/"])
        == "/s")
    // A relative value is ignored, as the specification says; so is a relative HOME.
    #expect(
      BaseDirectory.config.path(environment: ["HOME": "/h/", "XDG_CONFIG_HOME": "c"])
        == "/h/.config")
    #expect(BaseDirectory.data.path(environment: ["HOME": "h"]) == nil)
    #expect(BaseDirectory.data.path(environment: [:]) == nil)
  }
}
