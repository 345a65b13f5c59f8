import Foundation
import Testing

@testable import TesseraFeeds

@Suite(.timeLimit(.minutes(1))) struct UsersParserTests {
  static let users = #"""
    [
      {"avatar": "https:\/\/example.com\/a\/1.png", "username": "Ada Lovelace", "role": "Admin"},
      {"avatar": "https://example.com/a/2.png", "username": "grace", "role": "Owner"},
      {"avatar": "https://example.com/a/3.png", "username": "linus", "role": "User"},
      {"avatar": "https://example.com/a/4.png", "username": "tim", "role": "Guest"},
      {"avatar": "https://example.com/a/5.png", "username": "anna", "role": ""},
      {"avatar": "https://example.com/a/6.png", "username": "radia"},
      {"avatar": "https://example.com/a/7.png", "username": "ken", "role": 3},
      {"avatar": "https://example.com/a/8.png", "username": "barbara", "role": " admin "},
      {"username": "edsger", "role": "User"},
      {"avatar": "not a url", "username": "niklaus", "role": "User"},
      {"avatar": "https://example.com/a/9.png", "role": "User"},
      {"avatar": "https://example.com/a/10.png", "username": 12, "role": "User"},
      {"avatar": "https://example.com/a/11.png", "username": "  ", "role": "User"},
      {"avatar": "https://example.com/a/12.png", "username": "grace", "role": "User"},
      "nobody"
    ]
    """#

  @Test func rolesFollowTheSeedWithUnknownForAnythingElse() throws {
    let page = try UsersParser.parse(Data(Self.users.utf8))
    let roles = Dictionary(uniqueKeysWithValues: page.items.map { ($0.username, $0.role) })
    #expect(roles["Ada Lovelace"] == .admin)
    #expect(roles["grace"] == .owner)
    #expect(roles["linus"] == .user)
    #expect(roles["tim"] == .unknown)
    #expect(roles["anna"] == .unknown)
    #expect(roles["radia"] == .unknown)
    #expect(roles["ken"] == .unknown)
    #expect(roles["barbara"] == .admin)
    #expect(Role(parsing: nil) == .unknown)
    #expect(Role(parsing: "Unknown") == .unknown)
  }

  @Test func avatarsAreOptionalButUsernamesAreNot() throws {
    let page = try UsersParser.parse(Data(Self.users.utf8))
    #expect(page.items.count == 10)
    #expect(page.items.first?.avatarURL?.absoluteString == "https://example.com/a/1.png")
    #expect(page.items.first { $0.username == "edsger" }?.avatarURL == nil)
    #expect(page.items.first { $0.username == "niklaus" }?.avatarURL == nil)
    #expect(
      page.skipped == [
        SkippedItem(index: 10, field: "username", reason: .missing),
        SkippedItem(index: 11, field: "username", reason: .wrongType(expected: "a string")),
        SkippedItem(index: 12, field: "username", reason: .invalid("empty")),
        SkippedItem(index: 13, field: "username", reason: .invalid("duplicate")),
        SkippedItem(index: 14, field: "", reason: .wrongType(expected: "an object")),
      ])
  }

  @Test(arguments: [
    (#"{"users": []}"#, FeedError.wrongShape(field: "", item: nil, expected: "a JSON array")),
    ("[]", .emptyFeed),
    (#"[{"role": "User"}]"#, .wrongShape(field: "username", item: 0, expected: "a value")),
    ("<html>", .notJSON(preview: "<html>")),
  ])
  func badUserListsGiveTheirSpecificError(text: String, expected: FeedError) {
    #expect(throws: expected) { try UsersParser.parse(Data(text.utf8)) }
  }

  @Test func viewModelDerivesDisplayValuesOnce() {
    let user = User(
      avatarURL: URL(string: "https://example.com/a.png"), username: "Ada Lovelace", role: .admin)
    let model = UserViewModel(user: user)
    #expect(model.username == "Ada Lovelace")
    #expect(model.roleText == "Admin")
    #expect(model.initials == "AL")
    #expect(model.avatarURL == user.avatarURL)
    #expect(
      UserViewModel(user: User(avatarURL: nil, username: "grace", role: .unknown)).roleText
        == "Unknown")
    #expect(
      UserViewModel(user: User(avatarURL: nil, username: "grace", role: .user)).initials == "G")
  }
}
