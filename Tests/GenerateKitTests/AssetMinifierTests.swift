import Foundation
import Testing

@testable import GenerateKit

struct AssetMinifierTests {
  @Test func dropsCommentsAndIndentationButNotCode() {
    let source = """
      // A comment line.
      /**
       * A doc block.
       */
      export function f(url = "http://example.org/a") {
        const re = /\\/\\//g // keeps the code before a trailing comment
        return url.replace(re, '//')
      }

      """
    let expected = """
      export function f(url = "http://example.org/a") {
      const re = /\\/\\//g // keeps the code before a trailing comment
      return url.replace(re, '//')
      }

      """
    #expect(AssetMinifier.javaScript(source) == expected)
  }

  @Test func leavesMultiLineTemplateLiteralsAlone() {
    let source = "const t = `first\n  // not a comment\n    indented`\n  // gone\nx()\n"
    #expect(AssetMinifier.javaScript(source) == "const t = `first\n  // not a comment\n    indented`\nx()\n")
  }

  @Test func cssCommentsGoButStringsStay() {
    let source = "/* theme */\n:root {\n  --a: 1px; /* inline */\n  content: \"/* kept */\";\n}\n"
    #expect(AssetMinifier.css(source) == ":root{\n--a:1px;\ncontent:\"/* kept */\";\n}\n")
  }

  /// The spaces esbuild leaves in custom properties and media features go,
  /// and only where CSS never needs them.
  @Test func cssSpacesGoOnlyWhereTheyMeanNothing() {
    #expect(
      AssetMinifier.tightCSS(":root{--tint: #fa2d48;--fill: rgba(118, 118, 128, .12)}")
        == ":root{--tint:#fa2d48;--fill:rgba(118,118,128,.12)}")
    #expect(
      AssetMinifier.tightCSS("@media (hover: hover) and (min-width: 40rem) { a , b { color: red ; } }")
        == "@media (hover:hover) and (min-width:40rem){a,b{color:red;}}")
    // A descendant before a pseudo-class, arithmetic, an empty custom property and strings stay.
    #expect(
      AssetMinifier.tightCSS(".a :hover{width:calc(100% - 1rem)}") == ".a :hover{width:calc(100% - 1rem)}")
    #expect(AssetMinifier.tightCSS(":root{--empty: ;--b: 1}") == ":root{--empty: ;--b:1}")
    #expect(
      AssetMinifier.tightCSS(#"p::before{content: "a, b: {c}";quotes: '\', x' "y"}"#)
        == #"p::before{content:"a, b: {c}";quotes:'\', x' "y"}"#)
  }
}

/// Bundling: a stylesheet's `@import`s and a script's module graph become
/// what the page can fetch at once, with esbuild or without it.
struct AssetBundlerTests {
  static func asset(_ path: String, _ text: String) -> AssetFile {
    AssetFile(path: path, bytes: Array(text.utf8), source: "Templates/assets/" + path)
  }

  static let assets = [
    asset(
      "css/page.css",
      "/* one file */\n@import \"./theme.css\";\n@import \"site.css\";\n.page { color: red; }\n"),
    asset("css/theme.css", ":root { --tint: blue; }\n"),
    asset("css/site.css", "@import \"./theme.css\";\nbody { margin: 0; }\n"),
    asset("css/alone.css", "/* nothing imported */\np { margin: 0; }\n"),
    asset(
      "js/app.js", "import { a } from './lib/a.js'\nimport {\n  b,\n} from './lib/b.js'\nconsole.log(a + b)\n"
    ),
    asset("js/lib/a.js", "import { b } from './b.js'\nexport const a = b + 1\n"),
    asset("js/lib/b.js", "export const b = 1\n"),
    asset("icon.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>"),
  ]

  static func text(_ output: AssetBundler.Output, _ path: String) -> String {
    String(decoding: output.files.first { $0.path == path }?.bytes ?? [], as: UTF8.self)
  }

  @Test func findsStaticImportsIncludingMultiLineOnes() {
    let imports = AssetBundler.scriptImports(Array(Self.assets[4].bytes))
    #expect(imports == ["./lib/a.js", "./lib/b.js"])
    #expect(
      AssetBundler.scriptImports(
        Array("export function f() {\n  return import('./x.js')\n}\nexport { g } from '../g.js'\n".utf8)) == [
          "../g.js"
        ])
    #expect(AssetBundler.resolve("../g.js", from: "js/ui/f.js") == "js/g.js")
  }

  @Test func withoutEsbuildStylesheetsAreInlinedAndModulesPreloaded() throws {
    let output = try AssetBundler(esbuild: nil).bundle(Self.assets)
    #expect(
      Self.text(output, "css/page.css")
        == ":root{--tint:blue;}\nbody{margin:0;}\n.page{color:red;}\n")
    #expect(Self.text(output, "css/alone.css") == "p{margin:0;}\n")
    // Dependencies first, each once; the entry itself is the page's <script>.
    #expect(output.modulePreloads == ["js/lib/b.js", "js/lib/a.js"])
    #expect(Self.text(output, "js/app.js").hasPrefix("import { a } from './lib/a.js'"))
    #expect(output.files.count == Self.assets.count)
  }

  @Test func withEsbuildEntriesBecomeOneMinifiedFile() throws {
    guard let esbuild = AssetBundler.locateEsbuild() else { return }  // Tests/run.sh installs it
    let output = try AssetBundler(esbuild: esbuild).bundle(Self.assets)
    #expect(output.modulePreloads.isEmpty)
    let app = Self.text(output, "js/app.js")
    #expect(!app.contains("import"), "\(app)")
    #expect(app.contains("console.log"), "\(app)")
    let css = Self.text(output, "css/page.css")
    #expect(
      !css.contains("@import") && css.contains("--tint:blue") && css.contains(".page{color:red}"), "\(css)")
    // A file that imports nothing is only minified, the same with or without esbuild.
    #expect(Self.text(output, "css/alone.css") == "p{margin:0;}\n")
    #expect(Self.text(output, "js/lib/b.js") == "export const b = 1\n")
  }

  @Test func withEsbuildAModuleImportedOnDemandIsMinifiedButAClassicScriptKeepsItsNames() throws {
    guard let esbuild = AssetBundler.locateEsbuild() else { return }
    let assets =
      Self.assets + [
        Self.asset(
          "js/late.js",
          "import { a } from './lib/a.js'\nconst LAZY = new URL('./lazy.js', import.meta.url).href\n"),
        Self.asset(
          "js/lazy.js",
          "// fetched on first use\nexport function answer(question) {\n  const longName = 42\n  return longName\n}\n"
        ),
        Self.asset("js/classic.js", "function greetVisitor(name) {\n  return 'hello ' + name\n}\n"),
      ]
    let output = try AssetBundler(esbuild: esbuild).bundle(assets)
    let lazy = Self.text(output, "js/lazy.js")
    #expect(!lazy.contains("longName") && !lazy.contains("fetched") && lazy.contains("answer"), "\(lazy)")
    // A script nothing names may be a classic one whose top-level names are globals.
    #expect(Self.text(output, "js/classic.js").contains("function greetVisitor(name)"))
  }

  @Test func anEsbuildErrorNamesTheTemplateFile() throws {
    guard let esbuild = AssetBundler.locateEsbuild() else { return }
    let broken = Self.assets + [Self.asset("js/broken.js", "import { b } from './lib/b.js'\nlet x = (\n")]
    do {
      _ = try AssetBundler(esbuild: esbuild).bundle(broken)
      Issue.record("esbuild accepted a syntax error")
    } catch let error as DiagnosticsError {
      #expect(
        error.diagnostics.contains {
          $0.location?.file == "Templates/assets/js/broken.js" && $0.location?.line == 3
        }, "\(error)")
    }
  }

  @Test func theEmbeddedIndexCannotCloseItsScriptElement() {
    let manifest = Array(
      #"{"version":1,"termDirectories":[["a","t/dir-a.json"]],"title":"</script><b>&"}"#.utf8)
    let index = SiteIndex(
      files: [("idx/t/dir-a.json", Array(#"{"termShards":[]}"#.utf8)), ("idx/manifest.x.json", manifest)],
      manifestPath: "idx/manifest.x.json")
    let json = AssetIndexData.json(for: index)
    #expect(!json.contains("<") && !json.contains(">") && !json.contains("&"))
    #expect(json.hasPrefix(#"{"idx/manifest.x.json":{"version":1"#))
    #expect(json.hasSuffix(#""idx/t/dir-a.json":{"termShards":[]}}"#))
    #expect(!AssetIndexData.json(for: index, directoryBudget: 4).contains("dir-a.json\":{"))
  }
}

/// With layered template folders, an error in an asset template names the
/// folder the file is really in, not the first folder.
struct AssetTemplateFolderTests {
  @Test func anAssetErrorInALaterFolderNamesThatFolder() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    let config = try project.read("site.yml").replacingOccurrences(
      of: "templates: templates", with: "templates: [templates, extra]")
    try project.write("site.yml", config)
    try FileManager.default.createDirectory(
      atPath: project.path("extra/assets"), withIntermediateDirectories: true)
    try project.write("extra/assets/later.css.mustache", "p {\n  color: {{#site}}red;\n}\n")
    let diagnostics = expectBuildFailure(project)
    let diagnostic = try #require(
      diagnostics.first { $0.message.contains("template syntax") }, "\(diagnostics)")
    #expect(diagnostic.location?.file.hasSuffix("extra/assets/later.css.mustache") == true, "\(diagnostic)")
    #expect(diagnostic.location?.file.contains("templates/assets") == false, "\(diagnostic)")
  }
}
