import Foundation
import Testing

@testable import GenerateKit

/// The built-in theme travels with the binary: the copy embedded at build
/// time is `Templates/` byte for byte, and a user's folders are searched
/// first, file by file.
@Suite struct BuiltInThemeTests {
  static let themeFolder = packageRoot.appendingPathComponent("Templates").path

  @Test func theEmbeddedThemeIsTheTemplatesFolderByteForByte() throws {
    let embedded = TemplateSet.builtInFiles
    let onDisk = try #require(TemplateSet.folderFiles(Self.themeFolder))
      .filter { !$0.relative.split(separator: "/").contains { $0.hasPrefix(".") } }
    #expect(embedded.map(\.relative) == onDisk.map(\.relative))
    #expect(embedded.count > 20)
    for (built, file) in zip(embedded, onDisk) where built.relative == file.relative {
      #expect(built.bytes != nil, "\(built.relative) did not decode")
      #expect(built.bytes == file.bytes, "\(built.relative) differs from Templates/\(file.relative)")
    }
  }

  @Test func withNoFolderTheThemeAloneHasEverythingASiteNeeds() throws {
    let set = try TemplateSet.load(directories: [])
    for name in ["search", "404", "layout", "record", "topbar", "footer", "art"] {
      #expect(set.has(name), "the built-in theme has no \(name).mustache")
    }
    #expect(set.tagsByName["search"]?.file == "<built-in theme>/search.mustache")
    #expect(
      set.assets.contains { $0.path == "css/site.css" && $0.source == "<built-in theme>/assets/css/site.css" }
    )
  }

  @Test func aUserFolderOverridesTheThemeFileByFile() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("theme-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    for (path, text) in [
      ("assets/css/site.css", "body { color: red }\n"),
      ("partials/footer.mustache", "<footer>mine</footer>\n"),
      ("search.mustache", "<p>{{site.title}}</p>\n"),
    ] {
      let url = folder.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }
    let set = try TemplateSet.load(directories: [folder.path])
    let site = try #require(set.assets.first { $0.path == "css/site.css" })
    #expect(String(decoding: site.bytes, as: UTF8.self) == "body { color: red }\n")
    #expect(set.assets.filter { $0.path == "css/site.css" }.count == 1)
    #expect(set.assets.contains { $0.path == "css/detail.css" && $0.source.hasPrefix("<built-in theme>/") })
    #expect(set.tagsByName["footer"]?.file.hasSuffix("partials/footer.mustache") == true)
    #expect(set.tagsByName["footer"]?.file.hasPrefix("<built-in theme>") == false)
    #expect(set.tagsByName["search"]?.file.hasPrefix("<built-in theme>") == false)
    #expect(set.tagsByName["404"]?.file == "<built-in theme>/404.mustache")
    let page = set.render(["site": ["title": "Mine"]], withTemplate: "search")
    #expect(page.map { String(decoding: $0, as: UTF8.self) } == "<p>Mine</p>\n")

    // `builtInTheme: false`: the folder alone, none of the theme's files.
    let alone = try TemplateSet.load(directories: [folder.path], builtIn: false)
    #expect(alone.assets.map(\.path) == ["css/site.css"])
    #expect(!alone.has("404") && alone.has("search"))
  }

  @Test func aMissingPartialNamesTheThemeAmongThePlacesSearched() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("theme-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data("{{> nosuch}}\n".utf8).write(to: folder.appendingPathComponent("page.mustache"))
    #expect {
      try TemplateSet.load(directories: [folder.path])
    } throws: { error in
      let text = (error as? DiagnosticsError)?.diagnostics.map(\.message).joined() ?? ""
      return text.contains("partial 'nosuch' does not exist") && text.contains("<built-in theme>")
    }
  }
}
