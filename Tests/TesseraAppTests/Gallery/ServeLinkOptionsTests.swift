import ArgumentParser
import Testing

@testable import TesseraServer
@testable import tessera

/// `tessera serve --public-url URL --trusted-proxy ADDR…`: parsed into the server's link
/// settings, and a bad value is a usage error that says what is wrong with it.
struct ServeLinkOptionsTests {
  @Test func goodValuesBecomeTheLinkSettings() throws {
    let serve = try Serve.parse([
      "--public-url", "https://photos.example/t", "--trusted-proxy", "10.0.0.0/8",
      "--trusted-proxy", "::1",
    ])
    let links = try serve.links()
    #expect(links.publicURL?.base == "https://photos.example/t/")
    #expect(links.trustedProxies.map(\.description) == ["10.0.0.0/8", "0:0:0:0:0:0:0:1/128"])
    #expect(try Serve.parse([]).links() == LinkOrigin())
  }

  @Test(arguments: [
    (["--public-url", "ftp://photos.example"], "the scheme must be http or https"),
    (["--public-url", "https://photos.example/?a=1"], "no query or fragment"),
    (["--public-url", "photos.example"], "is not an http or https URL"),
    (["--trusted-proxy", "10.0.0.1/8"], "the block is 10.0.0.0/8"),
    (["--trusted-proxy", "proxy.lan"], "is not an IP address or CIDR block"),
  ])
  func badValuesAreUsageErrorsThatSayWhy(arguments: [String], reason: String) {
    do {
      _ = try Serve.parse(arguments)
      Issue.record("\(arguments) was accepted")
    } catch {
      let message = Serve.message(for: error)
      #expect(message.contains(reason), "\(message)")
      #expect(Serve.exitCode(for: error) == .validationFailure)
    }
  }
}
