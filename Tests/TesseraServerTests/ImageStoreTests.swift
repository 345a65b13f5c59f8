import Testing

@testable import TesseraServer

@Suite(.timeLimit(.minutes(1))) struct ImageStoreTests {
  static let seed: UInt64 = 7

  @Test func storeGeneratesOnceThenServesFromCache() async throws {
    let store = ImageStore(seed: Self.seed, capacityBytes: 1 << 20)
    let key = ImageKey(kind: .photo, id: 3, variant: .t, format: .jpeg)
    async let a = store.image(key)
    async let b = store.image(key)
    let (first, second) = try await (a, b)
    let third = try await store.image(key)
    #expect(first.bytes == second.bytes && second.bytes == third.bytes)
    #expect(await store.generated == 1)
    #expect(await store.hits == 2)
  }
}
