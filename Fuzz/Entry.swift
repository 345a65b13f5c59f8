// The libFuzzer entry point shared by every harness binary. `scripts/fuzz.sh` compiles this
// file, one module's harness files and that module's sources into a single Swift module with
// `-sanitize=fuzzer,address`; `TESSERA_FUZZ_HARNESS` picks which harness the run exercises.
import Foundation

/// Every harness of the module being fuzzed, by name: its folder under `Fuzz/` defines
/// `static let moduleHarnesses` in an extension.
enum FuzzHarnesses {
  static var all: [String: @Sendable (UnsafeRawBufferPointer) -> Void] { moduleHarnesses }
}

private let selectedHarness: @Sendable (UnsafeRawBufferPointer) -> Void = {
  let name = ProcessInfo.processInfo.environment["TESSERA_FUZZ_HARNESS"] ?? ""
  guard let harness = FuzzHarnesses.all[name] else {
    // `_exit`, not `exit`: libFuzzer takes an exit inside the target for a crash.
    let known = FuzzHarnesses.all.keys.sorted().joined(separator: ",")
    if name == "--list" {
      FileHandle.standardOutput.write(Data("harnesses: \(known)\n".utf8))
      _exit(0)
    }
    FileHandle.standardError.write(Data("unknown harness '\(name)'; known: \(known)\n".utf8))
    _exit(2)
  }
  return harness
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  selectedHarness(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size))
  return 0
}
