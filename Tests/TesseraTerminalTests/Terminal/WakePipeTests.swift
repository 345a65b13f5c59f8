import Foundation
import Testing

@testable import TesseraTerminal

#if canImport(Glibc)
  import Glibc
#endif

/// The wake pipe stays open while anyone holds it: a session that ends before its input
/// thread has stopped polling (the thread holds the pipe) must not close the descriptors
/// under it, whose numbers the process may give to other files.
@Suite struct WakePipeTests {
  private static func isOpen(_ descriptor: Int32) -> Bool { fcntl(descriptor, F_GETFD) != -1 }

  @Test func itClosesWhenItsLastHolderLetsGo() throws {
    var session: WakePipe? = try WakePipe()
    let descriptors = try #require(session.map { ($0.read, $0.write) })
    var thread: WakePipe? = session
    session = nil
    #expect(Self.isOpen(descriptors.0) && Self.isOpen(descriptors.1))
    thread?.wake(7)
    var byte: UInt8 = 0
    #expect(read(descriptors.0, &byte, 1) == 1 && byte == 7)
    thread = nil
    #expect(!Self.isOpen(descriptors.0) && !Self.isOpen(descriptors.1))
  }
}
