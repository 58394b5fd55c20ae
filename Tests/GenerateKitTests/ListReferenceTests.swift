import Foundation
import Testing

@testable import GenerateKit

/// A list in `refs` names a record per item: a package index's
/// `"depends": ["libc6", "zlib1g"]`, each the key of another package.
@Suite struct ListReferenceTests {
  static let packages = """
    {"name": "libc6", "depends": []}
    {"name": "zlib1g", "depends": ["libc6"]}
    {"name": "libcurl4", "depends": ["libc6", "zlib1g"]}
    {"name": "curl", "depends": ["libc6", "zlib1g", "libcurl4", "zlib1g"]}

    """

  static let config = """
    title: Packages
    tables:
      packages: { file: packages.jsonl, key: name, refs: { depends: packages } }
    collections:
      - id: packages
        label: Packages
        singular: Package
        table: packages
        title: name
        popularity: count(packages)
        page: { path: "packages/{{slug}}/" }

    """

  static func folder(packages: String = packages) throws -> URL {
    let folder = try emptyFolder("list-refs")
    try Data(packages.utf8).write(to: folder.appendingPathComponent("packages.jsonl"))
    try Data(config.utf8).write(to: folder.appendingPathComponent("site.yml"))
    return folder
  }

  @Test func expressionsFollowEveryReferenceOfAList() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let site = try preparedSite(config: folder.appendingPathComponent("site.yml").path)
    let table = try #require(site.dataset.tableNamed["packages"])
    let compiler = ExpressionCompiler(dataset: site.dataset)
    func value(_ text: String, _ key: String) throws -> Value {
      let row = try #require(table.rowForKey[key])
      return site.evaluator.evaluate(try compiler.compile(text, table: table), table: table, row: row)
    }
    // A name listed twice is one dependency.
    #expect(try value("count(depends)", "curl").number == 3)
    #expect(try value("join(depends.name)", "curl").text == "libc6, zlib1g, libcurl4")
    #expect(try value("count(depends.depends)", "libcurl4").number == 1)
    // Back the other way: the packages whose list names this one.
    #expect(try value("join(packages.name)", "libc6").text == "zlib1g, libcurl4, curl")
    #expect(try value("count(packages)", "curl").number == 0)
  }

  @Test func theRecordPageLinksEachAndListsThoseThatNameIt() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let (pages, remove) = try RecordPageTests.build(config: folder.appendingPathComponent("site.yml").path)
    defer { remove() }
    let curl = try #require(pages["packages/curl/index.html"])
    #expect(curl.contains("<a href=\"/packages/libc6/\">libc6</a>"), "\(curl)")
    #expect(curl.contains("<a href=\"/packages/libcurl4/\">libcurl4</a>"))
    let libc = RecordPageTests.visibleText(try #require(pages["packages/libc6/index.html"]))
    #expect(libc.contains("Packages 3"), "\(libc)")
  }

  @Test func anItemNamingNoRecordIsAnErrorAtTheRecord() throws {
    let broken = Self.packages.replacingOccurrences(of: "\"libcurl4\", \"zlib1g\"]", with: "\"libnope\"]")
    let folder = try Self.folder(packages: broken)
    defer { try? FileManager.default.removeItem(at: folder) }
    let diagnostics: [Diagnostic]
    do {
      _ = try preparedSite(config: folder.appendingPathComponent("site.yml").path)
      Issue.record("the build was expected to fail")
      return
    } catch {
      diagnostics = error.diagnostics
    }
    let diagnostic = try #require(diagnostics.first)
    #expect(diagnostic.message == "record curl: depends refers to packages 'libnope', which does not exist")
    #expect(diagnostic.location?.file.hasSuffix("packages.jsonl") == true)
    #expect(diagnostic.location?.line == 4 && diagnostic.location?.column == 29, "\(diagnostic)")
  }
}
