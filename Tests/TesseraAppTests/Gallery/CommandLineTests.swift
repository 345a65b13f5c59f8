import ArgumentParser
import Foundation
import Testing

@testable import TesseraGallery
@testable import tessera

/// `tessera [PATH|URL]…`: what each kind of argument becomes, and the CLI's own answers.
struct CommandLineTests {
  func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tessera-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    try Data([0xFF, 0xD8]).write(to: url.appendingPathComponent("a.jpg"))
    return url
  }

  func sources(_ arguments: [String]) throws -> GallerySources {
    try GallerySources(options: try Gallery.parse(arguments))
  }

  @Test func plainArgumentsAreFoldersFilesOrOneURL() throws {
    let root = try folder()
    defer { try? FileManager.default.removeItem(at: root) }
    let file = root.appendingPathComponent("a.jpg").path
    #expect(try sources([]) == .embedded(users: false))
    #expect(try sources(["--users", "embedded"]) == .embedded(users: true))
    #expect(try sources([root.path]) == .local([root.path]))
    #expect(try sources([root.path, file]) == .local([root.path, file]))
    // --dir is an alias, in the same walk.
    #expect(try sources(["--dir", root.path, file]) == .local([root.path, file]))
    let feed = "https://www.flickr.com/services/feeds/photos_public.gne?tags=sea"
    #expect(try sources([feed]) == .feed(URL(string: feed)!))
    #expect(try sources(["--feed", feed]) == .feed(URL(string: feed)!))
    #expect(
      try sources(["http://127.0.0.1:8080/users"])
        == .users(URL(string: "http://127.0.0.1:8080/users")!))
    #expect(
      try sources(["HTTPS://example.com/users.json"])
        == .users(URL(string: "HTTPS://example.com/users.json")!))
  }

  @Test func mixingAURLWithFoldersOrAMissingPathIsRefusedInWords() throws {
    let root = try folder()
    defer { try? FileManager.default.removeItem(at: root) }
    #expect(throws: (any Error).self) { try sources([root.path, "https://example.com/feed"]) }
    #expect(throws: (any Error).self) {
      try sources(["https://a.example/feed", "https://b.example/feed"])
    }
    #expect(throws: (any Error).self) { try sources(["ftp://example.com/x.jpg"]) }
    do {
      _ = try sources([root.path + "/missing"])
      Issue.record("a missing path was accepted")
    } catch {
      #expect(String(describing: error).contains("does not exist"))
    }
    #expect(throws: (any Error).self) { try Gallery.parse(["--depth", "-1"]) }
    #expect(throws: (any Error).self) { try Gallery.parse(["--sort", "size"]) }
  }

  /// An argument echoed in an error reaches the terminal: its controls (an escape sequence,
  /// a C1 control, a bidi override) show as "?", as the help says.
  @Test(arguments: [
    ("/missing\u{1B}[2J", "“/missing?[2J” does not exist"),
    ("/missing\u{9B}31m\u{202E}gpj.exe", "“/missing?31m?gpj.exe” does not exist"),
    ("ftp://x\u{1B}]0;t\u{07}", "only http(s) URLs can be shown, not “ftp://x?]0;t?”"),
  ])
  func argumentsInErrorsShowControlsAsQuestionMarks(argument: String, message: String) {
    do {
      _ = try sources([argument])
      Issue.record("“\(argument)” was accepted")
    } catch {
      #expect(Gallery.message(for: error) == message)
    }
  }

  @Test func sortSectionsDepthAndHiddenParse() throws {
    let options = try Gallery.parse([
      "--sort", "name", "--reverse", "--sections", "day", "--depth", "2", "--hidden",
    ])
    #expect(options.sort == .name)
    #expect(options.reverse)
    #expect(options.sections == .day)
    #expect(options.depth == 2)
    #expect(options.hidden)
    let defaults = try Gallery.parse([])
    // No --sort: the launcher takes the date taken, or the order given with -i.
    #expect(defaults.sort == nil && !defaults.reverse && defaults.sections == .month)
    #expect(!defaults.hidden)
    #expect(!defaults.readStdin && !defaults.printMarked && !defaults.pick)
    #expect(!defaults.nullSeparated)
  }

  @Test func pathsInAndOutParse() throws {
    let options = try Gallery.parse(["-i", "-o", "-0", "--pick", "--sort", "given"])
    #expect(options.readStdin && options.printMarked && options.nullSeparated && options.pick)
    #expect(options.sort == .given)
    let long = try Gallery.parse(["--stdin", "--print-marked"])
    #expect(long.readStdin && long.printMarked)
    // With -i the files come from standard input: a path as well is refused.
    #expect(throws: (any Error).self) { try Gallery.parse(["-i", "/tmp"]) }
  }

  @Test func versionIsPrintedAndSucceeds() {
    do {
      _ = try Tessera.parseAsRoot(["--version"])
      Issue.record("--version did not exit")
    } catch {
      #expect(Tessera.message(for: error) == Tessera.version)
      #expect(Tessera.exitCode(for: error) == .success)
    }
  }

  @Test func layoutHelpNamesTheLayoutsNotNumbers() throws {
    let help = Gallery.helpMessage(columns: 200)
    let layout = help.split(separator: "\n").first { $0.contains("--layout") } ?? ""
    #expect(layout.contains("values: grid, list, waterfall"))
    #expect(layout.contains("default: grid"))
    #expect(!layout.contains("1"))
    #expect((try? Gallery.parse(["--layout", "waterfall"]))?.layout == .waterfall)
    #expect(throws: (any Error).self) { try Gallery.parse(["--layout", "2"]) }
  }
}
