/// Why an operator's `--public-url` or `--trusted-proxy` was refused, as a sentence that
/// names the value and what would be accepted.
public struct LinkSettingError: Error, Equatable, CustomStringConvertible {
  public let description: String

  init(_ description: String) {
    self.description = description
  }
}
