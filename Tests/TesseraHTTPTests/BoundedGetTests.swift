import Foundation
import Testing

@testable import TesseraHTTP

struct BoundedGetTests {
  @Test(arguments: [
    "file:///etc/passwd", "ftp://example.com/a.jpg", "http:///nohost", "data:image/png;base64,AA",
    "unix:///var/run/docker.sock", "http+unix://%2Ftmp%2Fs/x",
  ])
  func onlyWebAddressesAreFetched(_ text: String) {
    let url = URL(string: text)
    #expect(url.map(BoundedGet.isWebURL) != true)
  }

  @Test func httpAndHTTPSWithAHostAreWebAddresses() throws {
    #expect(BoundedGet.isWebURL(try #require(URL(string: "http://127.0.0.1:8080/feed.json"))))
    #expect(BoundedGet.isWebURL(try #require(URL(string: "HTTPS://example.com/a.jpg"))))
  }

  @Test func cancellationAndTimeoutsHaveTheirOwnNames() {
    #expect(BoundedGet.failure(CancellationError()) == .cancelled)
    #expect(BoundedGet.failure(BoundedGet.Failure.timedOut) == .timedOut)
  }
}
