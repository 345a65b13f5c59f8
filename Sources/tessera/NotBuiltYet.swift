import ArgumentParser

/// Says plainly that a subcommand exists in the interface but not yet in the code.
struct NotBuiltYet: Error, CustomStringConvertible {
  let what: String
  var description: String { "\(what) is not built yet" }
}
