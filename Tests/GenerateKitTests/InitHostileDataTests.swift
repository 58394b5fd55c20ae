import Foundation
import Testing

@testable import GenerateKit

/// Hostile values through `init` and a build with the built-in theme, by
/// the real executable: markup, script ends, Mustache tags, bidi overrides
/// and zero-width joiners in titles, facet values (which become scopes
/// and labels in the written config) and searched text. The site builds
/// with no warning, every value reaches the pages as text, and nothing is
/// written outside the output folder.
@Suite struct InitHostileDataTests {
  static let markup = [
    "</script><script>alert(1)</script>", "\"><img src=x onerror=alert(2)>", "<b>bold</b>",
    "\"><svg onload=alert(4)>", "</textarea><style>*{display:none}</style>",
  ]

  static let rows = [
    ["code", "name", "kind", "note"],
    ["x1", "</script><script>alert(1)</script>", "<b>bold</b>", "\"><img src=x onerror=alert(2)>"],
    [
      "x2", "\"><img src=x onerror=alert(2)>", "\"><svg onload=alert(4)>",
      "{{#x}}{{/x}} {{{y}}} {{> layout}}",
    ],
    [
      "x3", "{{mustache}} {{{triple}}}", "<b>bold</b>", "\u{202E}gnp.exe \u{200D}\u{200B}\u{2066}iso\u{2069}",
    ],
    ["x4", "A/B", "\"><svg onload=alert(4)>", "${alert(6)} `x`"],
    ["x5", "A-B", "<b>bold</b>", "</textarea><style>*{display:none}</style>"],
    ["x6", "\u{202E}RTL override", "\"><svg onload=alert(4)>", "&lt;escaped&gt; &amp;amp;"],
    ["x7", "Family 👩‍👩‍👧 Ünïcödé", "<b>bold</b>", "'single' \"double\""],
  ]

  /// The rows as RFC 4180 CSV: every field quoted, quotes doubled.
  static var csv: String {
    rows.map { row in
      row.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: ",")
    }.joined(separator: "\n") + "\n"
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: BadInputSuite.executable)))
  func markupInTheDataStaysText() throws {
    let folder = try DataFolder(["hostile.csv": Self.csv])
    defer { folder.remove() }
    let initialized = try runProcess(BadInputSuite.executable, ["init", "hostile.csv"], in: folder.root)
    #expect(initialized.status == 0, "\(initialized.err)")
    #expect(!initialized.err.contains("warning"), "\(initialized.err)")
    let build = try runProcess(
      BadInputSuite.executable, ["--config", "site.yml", "--output", "site", "--strict", "-q"],
      in: folder.root)
    #expect(build.status == 0, "\(build.err)")

    let site = folder.root.appendingPathComponent("site")
    var pages = 0
    let files = try #require(FileManager.default.enumerator(at: site, includingPropertiesForKeys: nil))
    for case let file as URL in files {
      let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
      if file.pathExtension == "html" {
        pages += 1
        for value in Self.markup { #expect(!text.contains(value), "\(file.path) holds \(value) as markup") }
        // One script element per script tag: a value never ends one early.
        let opened = text.components(separatedBy: "<script").count
        #expect(opened == text.components(separatedBy: "</script>").count, "\(file.path)")
      } else if file.pathExtension == "json" {
        #expect(
          (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) != nil,
          "\(file.path) is not JSON")
      }
    }
    #expect(pages >= 7)
    // Every record has its page, the script one as text in its heading.
    let records = try FileManager.default.contentsOfDirectory(
      atPath: site.appendingPathComponent("hostile").path)
    #expect(records.count == 7, "\(records.sorted())")
    let first = try #require(records.first { $0.hasPrefix("x1") || $0.contains("script") })
    let page = try String(
      contentsOf: site.appendingPathComponent("hostile/\(first)/index.html"), encoding: .utf8)
    #expect(page.contains("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;"))
    // Nothing beside the data, the config and the site.
    let beside = try FileManager.default.contentsOfDirectory(atPath: folder.root.path)
      .filter { !$0.hasPrefix(".") }.sorted()
    #expect(beside == ["hostile.csv", "site", "site.yml"])
  }

  /// A table wider than `init` can weigh (its choices compare columns with
  /// each other) is refused at its file, and nothing is written: at
  /// 100,000 columns it ran for half an hour.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: BadInputSuite.executable)))
  func aTableTooWideToWeighIsRefusedAtItsFile() throws {
    let columns = DataFileReader.maximumColumns + 1
    let header = (0..<columns).map { "c\($0)" }.joined(separator: ",")
    let row = Array(repeating: "v", count: columns).joined(separator: ",")
    let folder = try DataFolder(["wide.csv": header + "\n" + row + "\n"])
    defer { folder.remove() }
    let result = try runProcess(BadInputSuite.executable, ["init", "wide.csv"], in: folder.root)
    #expect(result.status == 1, "\(result.err)")
    #expect(
      result.err.contains(
        "wide.csv:1:1: error: table 'wide' has \(columns) columns; init chooses among at most \(columns - 1)"),
      "\(result.err)")
    #expect(!FileManager.default.fileExists(atPath: folder.path("site.yml")))
  }
}
