import Foundation
import TesseraImageSynthesis
import TesseraUtilities

/// The photos and users the server publishes, all derived from the seed: ids 1…itemCount,
/// newest first, each with a title, author, tags, dates, secret and encoding.
///
/// Counts are clamped into `ServerLimits` (0…1,000,000 items, 0…100,000 users).
/// Entries are computed on demand in O(1); the tag index (built once, O(items × tags)) answers
/// tag queries in O(matches).
struct Catalog: Sendable {
  struct Entry: Sendable {
    let id: Int
    let secret: String
    let title: String
    let author: String
    let authorID: String
    let tags: [String]
    let published: Date
    let taken: Date
    /// Minutes east of UTC of the place the photo was taken (Flickr writes local times).
    let takenOffsetMinutes: Int
    let format: ImageFormat
  }

  struct UserEntry: Sendable {
    let id: Int
    let username: String
    /// nil: the entry has no `role` key at all.
    let role: String?
  }

  let seed: UInt64
  let itemCount: Int
  let userCount: Int
  /// The newest photo's publication; each older one is 17 minutes earlier.
  let newest: Date
  private let tagIndex: [String: [Int]]

  static let vocabulary = [
    "sea", "harbour", "city", "night", "forest", "snow", "food", "bird", "street", "portrait",
    "mountain", "river", "bridge", "market", "garden", "train", "rain", "sunset", "cat", "dog",
    "architecture", "flowers", "beach", "winter",
  ]
  private static let adjectives = [
    "Quiet", "Early", "Blue", "Golden", "Misty", "Late", "Bright", "Old", "Small", "Distant",
    "Northern", "Hidden",
  ]
  private static let nouns = [
    "harbour", "morning", "street", "garden", "bridge", "market", "hills", "station", "lake",
    "rooftops", "orchard", "lighthouse",
  ]
  private static let firstNames = [
    "Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Frances", "John", "Katherine",
    "Linus", "Margaret", "Niklaus", "Radia", "Tim", "Yukihiro", "Anna",
  ]
  private static let lastNames = [
    "Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Knuth", "Allen", "Backus", "Johnson",
    "Hamilton", "Wirth", "Perlman", "Berners-Lee", "O'Neil", "Matsumoto",
  ]

  init(seed: UInt64, itemCount: Int, userCount: Int, newest: Date) {
    self.seed = seed
    self.itemCount = itemCount.clamped(to: 0...ServerLimits.maxItems)
    self.userCount = userCount.clamped(to: 0...ServerLimits.maxUsers)
    self.newest = newest
    var index: [String: [Int]] = [:]
    for id in stride(from: 1, through: self.itemCount, by: 1) {
      for tag in Self.tags(id: id, seed: seed) { index[tag, default: []].append(id) }
    }
    tagIndex = index
  }

  func contains(id: Int) -> Bool { (1...max(1, itemCount)).contains(id) && itemCount > 0 }

  /// Ids carrying the tags (all of them, or any with `matchAll` false), newest first.
  func ids(tags: [String], matchAll: Bool) -> [Int] {
    let wanted = Set(tags.map { $0.lowercased() }.filter { !$0.isEmpty })
    guard !wanted.isEmpty else { return Array(stride(from: 1, through: itemCount, by: 1)) }
    let lists = wanted.map { tagIndex[$0] ?? [] }
    if matchAll {
      guard let shortest = lists.min(by: { $0.count < $1.count }) else { return [] }
      let sets = lists.map(Set.init)
      return shortest.filter { id in sets.allSatisfy { $0.contains(id) } }
    }
    return Array(Set(lists.joined())).sorted()
  }

  static func tags(id: Int, seed: UInt64) -> [String] {
    var random = SplitMix64(seed: seed, 0x7A65, UInt64(bitPattern: Int64(id)))
    let count = 1 + Int(random.next() % 4)
    var tags: [String] = []
    while tags.count < count {
      let tag = random.pick(vocabulary)
      if !tags.contains(tag) { tags.append(tag) }
    }
    return tags
  }

  func entry(id: Int) -> Entry {
    var random = SplitMix64(seed: seed, 0xE27, UInt64(bitPattern: Int64(id)))
    let roll = random.unit()
    // Flickr quirks on purpose: untitled photos, and apostrophes (escaped `\'` in the JSON).
    let title: String
    if roll < 0.08 {
      title = ""
    } else if roll < 0.16 {
      title = "\(random.pick(Self.firstNames))'s \(random.pick(Self.nouns))"
    } else {
      title = "\(random.pick(Self.adjectives)) \(random.pick(Self.nouns))"
    }
    let authorNumber = Int(random.next() % 97)
    let published = newest.addingTimeInterval(-Double(id - 1) * 17 * 60)
    let offsets = [-480, -300, 0, 60, 120, 330, 540, 600]
    return Entry(
      id: id,
      secret: GeneratedImages.secret(id: id, seed: seed),
      title: title,
      author: Self.name(authorNumber),
      authorID: "\(10_000_000 + authorNumber * 7919)@N0\(authorNumber % 9 + 1)",
      tags: Self.tags(id: id, seed: seed),
      published: published,
      taken: published.addingTimeInterval(-Double(random.next() % (3 * 86_400))),
      takenOffsetMinutes: random.pick(offsets),
      format: GeneratedImages.format(id: id))
  }

  static func name(_ number: Int) -> String {
    "\(firstNames[number % firstNames.count]) \(lastNames[(number / firstNames.count + number) % lastNames.count])"
  }

  /// Users 1…userCount: mostly Users, some Owners and Admins, and some roles the seed's
  /// parser must read as Unknown (another word, empty, missing).
  func user(id: Int) -> UserEntry {
    var random = SplitMix64(seed: seed, 0x05E2, UInt64(bitPattern: Int64(id)))
    let name = Self.name(Int(random.next() % 240)).lowercased()
      .replacingOccurrences(of: " ", with: ".").replacingOccurrences(of: "'", with: "")
    let roll = random.unit()
    let role: String? =
      switch roll {
      case ..<0.6: "User"
      case ..<0.8: "Owner"
      case ..<0.9: "Admin"
      case ..<0.94: "Guest"
      case ..<0.97: ""
      default: nil
      }
    return UserEntry(id: id, username: "\(name).\(id)", role: role)
  }
}
