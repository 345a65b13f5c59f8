import Foundation
import TesseraUtilities
import Testing

@testable import TesseraImages

/// Numbers in HTTP caching headers are outside input: none may make an entry fresh for longer
/// than `ImageLimits.maxFreshnessLifetime` (an hour), and none may trap.
@Suite(.timeLimit(.minutes(1))) struct HTTPCacheLimitsTests {
  let now = Date(timeIntervalSince1970: 1_700_000_000)
  let hour: TimeInterval = 3_600

  private func metadata(_ headers: [String: String]) -> HTTPCacheMetadata? {
    HTTPCacheMetadata.from(DataResponse(headers: headers), at: now, defaultLifetime: 100)
  }

  @Test func aYearOfMaxAgeIsAnHour() {
    #expect(metadata(["Cache-Control": "max-age=31536000"])?.freshUntil == now + hour)
  }

  @Test(arguments: ["1e9", "inf", "nan", "-5", "0x10", "12abc", "", "9.5"])
  func aMaxAgeThatIsNotDeltaSecondsIsStale(_ value: String) {
    let entry = metadata(["Cache-Control": "max-age=\(value)"])
    #expect(entry?.freshUntil == now)
    #expect(entry?.isFresh(at: now) == false)
  }

  @Test func aMaxAgeBeyondAnyIntegerSaturatesInsteadOfTrapping() {
    let digits = String(repeating: "9", count: 400)
    #expect(metadata(["Cache-Control": "max-age=\(digits)"])?.freshUntil == now + hour)
    #expect(DeltaSeconds.parse(digits) == ImageLimits.maxDeltaSeconds)
  }

  @Test(arguments: ["nan", "inf", "1e300", "-100", "abc"])
  func anAgeThatIsNotDeltaSecondsIsIgnored(_ age: String) {
    let entry = metadata(["Cache-Control": "max-age=600", "Age": age])
    #expect(entry?.freshUntil == now + 600)
  }

  @Test func anAgeLargerThanMaxAgeIsStale() {
    let entry = metadata(["Cache-Control": "max-age=600", "Age": "99999999999999999999"])
    #expect(entry?.freshUntil == now)
  }

  @Test func anExpiresFarInTheFutureIsAnHour() {
    let entry = metadata([
      "Date": HTTPDate.format(now), "Expires": "Fri, 31 Dec 9999 23:59:59 GMT",
    ])
    #expect(entry?.freshUntil == now + hour)
  }

  @Test func aDefaultLifetimeOverAnHourIsAnHour() {
    let entry = HTTPCacheMetadata.from(
      DataResponse(), at: now, defaultLifetime: .greatestFiniteMagnitude)
    #expect(entry?.freshUntil == now + hour)
    let nan = HTTPCacheMetadata.from(DataResponse(), at: now, defaultLifetime: .nan)
    #expect(nan?.freshUntil == now)
  }

  /// Metadata read back from a disk-cache file is not trusted to keep the rule either.
  @Test func storedMetadataIsFreshForAnHourAtMostWhateverItSays() {
    let forever = HTTPCacheMetadata(storedAt: now, freshUntil: .distantFuture)
    #expect(forever.isFresh(at: now + hour - 1))
    #expect(!forever.isFresh(at: now + hour + 1))
    let fromTheFuture = HTTPCacheMetadata(
      storedAt: .distantFuture, freshUntil: .distantFuture)
    #expect(!fromTheFuture.isFresh(at: now))
    let infinite = HTTPCacheMetadata(
      storedAt: now, freshUntil: Date(timeIntervalSinceReferenceDate: .infinity))
    #expect(!infinite.isFresh(at: now))
  }

  @Test func anOversizedValidatorIsNotKept() {
    let huge = "\"" + String(repeating: "e", count: 10_000) + "\""
    let entry = metadata(["Cache-Control": "max-age=60", "ETag": huge])
    #expect(entry?.etag == nil)
    #expect(entry?.freshUntil == now + 60)
  }

  @Test func deltaSecondsAreDigitsOnly() {
    #expect(DeltaSeconds.parse("600") == 600)
    #expect(DeltaSeconds.parse(" 600 ") == 600)
    #expect(DeltaSeconds.parse("6 00") == nil)
    #expect(DeltaSeconds.parse("+600") == nil)
    #expect(DeltaSeconds.parse("٦٠٠") == nil)  // Arabic-Indic digits are not ASCII digits
  }
}
