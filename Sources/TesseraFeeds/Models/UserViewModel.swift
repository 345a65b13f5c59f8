import Foundation

/// What a user cell shows, computed once when the feed arrives so configuring a cell only
/// assigns.
public struct UserViewModel: Identifiable, Equatable, Sendable, CustomStringConvertible {
  public let id: String
  public let avatarURL: URL?
  public let username: String
  public let role: Role
  /// The role as a label: "Admin", "Owner", "User", "Unknown".
  public let roleText: String
  /// Up to two letters for the avatar's placeholder: "Ada Lovelace" → "AL", "grace" → "G".
  public let initials: String

  public init(user: User) {
    id = user.id
    avatarURL = user.avatarURL
    username = user.username
    role = user.role
    roleText = user.role.rawValue
    initials = Self.initials(of: user.username)
  }

  static func initials(of name: String) -> String {
    let words = name.split { !$0.isLetter && !$0.isNumber }
    let letters = words.prefix(2).compactMap(\.first)
    return String(letters).uppercased()
  }

  public var description: String { "UserViewModel(\(username))" }
}
