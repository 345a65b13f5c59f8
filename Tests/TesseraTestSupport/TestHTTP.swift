import AsyncHTTPClient
import Foundation
import NIOHTTP1
import TesseraHTTP

/// Plain GETs and HEADs for the tests, through AsyncHTTPClient's shared client (one connection
/// pool, as the app's), not URLSession: FoundationNetworking's libcurl teardown through
/// dispatch sources is a known writer into freed memory on Linux
/// (swift-corelibs-foundation#4791), so only the URLSession loader's own tests use it.
package enum TestHTTP {
  /// Why no answer came (a time-out, a refused or dropped connection…).
  package typealias Failure = BoundedGet.Failure

  /// One answer: the status, the headers (names lower-cased, repeated ones joined with ", ")
  /// and the body.
  package struct Answer: Sendable, CustomStringConvertible {
    package let status: Int
    package let headers: [String: String]
    package let body: Data
    package var description: String { "HTTP \(status), \(body.count) bytes" }

    /// The header `name`, whatever its case.
    package func header(_ name: String) -> String? { headers[name.lowercased()] }
  }

  /// A GET of `url` with `headers`, within `timeout` seconds for the whole transfer.
  package static func get(
    _ url: URL, headers: [String: String] = [:], timeout: Double = 30
  ) async throws -> Answer {
    let response = try await BoundedGet.get(
      url.absoluteURL, with: HTTPClient.shared, headers: headers.map { ($0.key, $0.value) },
      deadlineMilliseconds: Int64(timeout * 1000), maxBytes: 64 << 20)
    return Answer(status: response.status, headers: response.headers, body: response.body)
  }

  /// A HEAD of `url`: the status and headers, and whatever body bytes came (none should).
  package static func head(_ url: URL, timeout: Double = 30) async throws -> Answer {
    var request = HTTPClientRequest(url: url.absoluteString)
    request.method = .HEAD
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(Int64(timeout)))
    var headers: [String: String] = [:]
    for (name, value) in response.headers {
      let key = name.lowercased()
      headers[key] = headers[key].map { "\($0), \(value)" } ?? value
    }
    let body = try await response.body.collect(upTo: 1 << 20)
    return Answer(
      status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView))
  }
}
