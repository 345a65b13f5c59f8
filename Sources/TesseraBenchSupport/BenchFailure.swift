package struct BenchFailure: Error, CustomStringConvertible {
  package let description: String
  package init(_ description: String) { self.description = description }
}
