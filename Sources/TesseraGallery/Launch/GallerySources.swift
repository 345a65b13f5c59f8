import Foundation
import TesseraTerminal
import TesseraUtilities

/// What the command line asks the gallery to show, from plain arguments (`tessera [PATH|URL]…`)
/// and the older `--dir`, `--feed` and `--users` options, which say the same thing.
///
/// Folders and image files combine into one walk; a feed or users URL is shown alone (their
/// items, paging and failures are the server's). An http(s) URL whose last path component
/// names users (`/users`, `users.json`) is a users list; any other is a Flickr-format feed.
package enum GallerySources: Equatable {
  /// Nothing given: the embedded server's photo feed, or its users list.
  case embedded(users: Bool)
  /// Folders and image files, walked together.
  case local([String])
  case feed(URL)
  case users(URL)

  package init(options: some GalleryOptions) throws(GalleryError) {
    try self.init(
      inputs: options.inputs, feed: options.feed, users: options.users, folders: options.dir)
  }

  init(inputs: [String], feed: String?, users: String?, folders: [String]) throws(GalleryError) {
    var local = folders
    var remote: [GallerySources] = []
    for input in inputs {
      if let url = try Self.remote(input) {
        remote.append(Self.isUsersList(url) ? .users(url) : .feed(url))
      } else {
        local.append(input)
      }
    }
    if let feed { remote.append(.feed(try Self.httpURL(feed, option: "--feed"))) }
    let embeddedUsers = users == "embedded"
    if let users, !embeddedUsers {
      remote.append(.users(try Self.httpURL(users, option: "--users")))
    }
    for path in local {
      // By its own bytes: a name that is not UTF-8 exists too (`FileSystemName`).
      var info = stat()
      guard FileSystemName.withCString(path, { stat($0, &info) }) == 0 else {
        throw GalleryError(description: "\(Self.quoted(path)) does not exist")
      }
    }
    switch (local.isEmpty, remote.count, embeddedUsers) {
    case (true, 0, let users): self = .embedded(users: users)
    case (false, 0, false): self = .local(local)
    case (true, 1, false): self = remote[0]
    default:
      throw GalleryError(
        description:
          "show one feed or users URL at a time, on its own; folders and image files can be combined"
      )
    }
  }

  /// The URL an argument names, nil for a path; an address with another scheme is refused.
  private static func remote(_ input: String) throws(GalleryError) -> URL? {
    let lowered = input.lowercased()
    if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
      return try httpURL(input, option: "an argument")
    }
    if let colon = input.range(of: "://"),
      input[..<colon.lowerBound].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" })
    {
      throw GalleryError(description: "only http(s) URLs can be shown, not \(Self.quoted(input))")
    }
    return nil
  }

  /// An argument as typed, quoted for the error that names it: controls, line breaks and
  /// bidi controls as "?", bytes that are not UTF-8 as U+FFFD (the error goes to a terminal).
  private static func quoted(_ argument: String) -> String {
    "“" + TerminalText.questionMarked(argument) + "”"
  }

  static func isUsersList(_ url: URL) -> Bool {
    let last = url.lastPathComponent.lowercased()
    return last == "users" || last.hasPrefix("users.")
  }

  static func httpURL(_ text: String, option: String) throws(GalleryError) -> URL {
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", url.host != nil
    else {
      throw GalleryError(description: "\(option) needs an http(s) URL, got \(Self.quoted(text))")
    }
    return url
  }
}
