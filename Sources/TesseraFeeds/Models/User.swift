import Foundation

/// What a user may do, as the users JSON names it. Anything unrecognised is `.unknown`.
public enum Role: String, CaseIterable, Sendable {
  case user = "User"
  case owner = "Owner"
  case admin = "Admin"
  case unknown = "Unknown"

  /// Matches the names case-insensitively, ignoring surrounding spaces.
  public init(parsing text: String?) {
    let name = (text ?? "").trimmingCharacters(in: .whitespaces).lowercased()
    self = Role.allCases.first { $0.rawValue.lowercased() == name && $0 != .unknown } ?? .unknown
  }
}

/// One entry of the users JSON: `{"avatar": "…", "username": "…", "role": "…"}`.
public struct User: Identifiable, Equatable, Sendable, CustomStringConvertible {
  /// Usernames identify users; the parser drops later duplicates.
  public var id: String { username }
  public var avatarURL: URL?
  public var username: String
  public var role: Role

  public init(avatarURL: URL?, username: String, role: Role) {
    self.avatarURL = avatarURL
    self.username = username
    self.role = role
  }

  public var description: String { "User(\(username), \(role.rawValue))" }
}

/// Turns a users JSON array into users. Linear in the body's size.
public enum UsersParser {
  public static func parse(_ data: Data) throws(FeedError) -> FeedPage<User> {
    let document = try JSONDocument.parse(data)
    guard let entries = document as? [Any] else {
      throw .wrongShape(field: "", item: nil, expected: "a JSON array")
    }
    var users: [User] = []
    var skipped: [SkippedItem] = []
    var seen = Set<String>()
    for (index, entry) in entries.enumerated() {
      do throws(SkippedItem) {
        let user = try user(from: entry, index: index)
        guard seen.insert(user.username).inserted else {
          throw SkippedItem(index: index, field: "username", reason: .invalid("duplicate"))
        }
        users.append(user)
      } catch {
        skipped.append(error)
      }
    }
    if users.isEmpty {
      throw skipped.first?.asFeedError ?? .emptyFeed
    }
    return FeedPage(items: users, skipped: skipped)
  }

  static func user(from entry: Any, index: Int) throws(SkippedItem) -> User {
    guard let object = entry as? [String: Any] else {
      throw SkippedItem(index: index, field: "", reason: .wrongType(expected: "an object"))
    }
    let fields = FeedFields(object: object, index: index)
    let username = try fields.required("username")
    guard !username.trimmingCharacters(in: .whitespaces).isEmpty else {
      throw SkippedItem(index: index, field: "username", reason: .invalid("empty"))
    }
    // A missing or malformed avatar leaves the placeholder; it is no reason to drop a user.
    // An absolute address outside http(s) (`file:`, `data:`…) is: the entry is hostile.
    var avatar = (try fields.optional("avatar")).flatMap { URL(string: $0) }
    if let url = avatar, url.scheme == nil {
      avatar = nil
    } else if let url = avatar {
      avatar = try WebURL.check(url, index: index, field: "avatar")
    }
    // The seed reads any role it does not know, including a non-string one, as Unknown.
    let role = Role(parsing: object["role"] as? String)
    return User(avatarURL: avatar, username: username, role: role)
  }
}
