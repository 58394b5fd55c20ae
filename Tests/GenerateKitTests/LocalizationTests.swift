import Foundation
import Testing

@testable import GenerateKit

/// The interface in the site's language (`Localization/`): the built-in
/// catalogues are complete, the page's script carries exactly the English
/// texts its markers name, a site in another language gets its words in the
/// pages and the script and `dir="rtl"` where it is written right to left,
/// and `strings:` overrides any text, with mistakes at their line.
@Suite struct LocalizationTests {
  static let rightToLeft: Set<String> = ["ar", "he", "fa", "ur"]

  @Test func everyCatalogueHasEveryKeyWithItsPlaceholders() throws {
    let english = Catalogue.english
    #expect(english.keys.count > 80)
    #expect(Catalogue.all.count >= 21, "\(Catalogue.all.keys.sorted())")
    for required in [
      "ar", "zh", "fr", "ru", "es", "de", "it", "pt", "nl", "sv", "pl", "ja", "ko", "hi", "id", "tr", "vi",
      "he", "uk", "fa", "ur",
    ] {
      #expect(Catalogue.all[required] != nil, "no catalogue for \(required)")
    }
    for (code, catalogue) in Catalogue.all {
      #expect(Set(catalogue.keys) == Set(english.keys), "\(code): keys differ from en.yml")
      #expect(catalogue.counted == english.counted, "\(code): counts differ from en.yml")
      let direction = catalogue.texts["direction"]
      #expect(
        direction == (Self.rightToLeft.contains(code) ? "rtl" : "ltr"),
        "\(code): direction \(direction ?? "")")
      for key in english.keys where key != "direction" {
        if english.counted.contains(key) {
          let allowed = UIStrings.placeholders(english.texts["\(key).other"] ?? "")
          for category in PluralRules.categories(code) {
            let form = try #require(
              catalogue.texts["\(key).\(category)"], "\(code): \(key) lacks '\(category)'")
            #expect(UIStrings.placeholders(form).isSubset(of: allowed), "\(code): \(key).\(category)")
          }
        } else {
          let text = try #require(catalogue.texts[key], "\(code): no \(key)")
          #expect(
            UIStrings.placeholders(text) == UIStrings.placeholders(english.texts[key] ?? ""),
            "\(code): \(key) = \(text)")
        }
      }
    }
  }

  /// Every `/*t:key*/` in the theme's script names an English key, and the
  /// text after it is that key's English text (its `${…}`s standing for the
  /// {names} in order): an English site's script is what it was.
  @Test func everyMarkerInTheScriptIsItsEnglishText() throws {
    let english = Catalogue.english
    let folder = packageRoot.appendingPathComponent("Templates/assets/js")
    var markers = 0
    for case let path as String in FileManager.default.enumerator(atPath: folder.path) ?? .init()
    where path.hasSuffix(".js") {
      let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(path)))
      var at = 0
      while let start = ScriptStrings.find(Array("/*t:".utf8), in: bytes, from: at) {
        let close = try #require(ScriptStrings.find(Array("*/".utf8), in: bytes, from: start))
        let key = String(decoding: bytes[(start + 4)..<close], as: UTF8.self)
        let end = try #require(ScriptStrings.literalEnd(bytes, from: close + 2), "\(path): \(key)")
        let literal = String(decoding: bytes[(close + 2)..<end], as: UTF8.self)
        markers += 1
        if key == "direction" {
          #expect(literal == "'ltr'", "\(path)")
        } else if key == ScriptStrings.snowballKey {
          #expect(literal == "'any'", "\(path)")
        } else if english.counted.contains(key) {
          let forms = ["one", "other"].map { "\($0): '\(english.texts["\(key).\($0)"] ?? "")'" }
          #expect(literal == "{ \(forms.joined(separator: ", ")) }", "\(path): \(key)")
        } else {
          let text = try #require(english.texts[key], "\(path): unknown key \(key)")
          let names = ScriptStrings.placeholderOrder(text)
          #expect(Self.englishText(of: literal, names: names) == text, "\(path): \(key)")
        }
        at = end
      }
    }
    #expect(markers > 30)
  }

  /// A literal as the English text it stands for: quotes off, `\u201c` read,
  /// each `${…}` as the next of `names`.
  static func englishText(of literal: String, names: [String]) -> String {
    var body = String(literal.dropFirst().dropLast())
    for (escape, character) in [("\\u201c", "\u{201C}"), ("\\u201d", "\u{201D}"), ("\\u2019", "\u{2019}")] {
      body = body.replacingOccurrences(of: escape, with: character)
    }
    guard literal.hasPrefix("`") else { return body }
    var names = names.makeIterator()
    var result = ""
    var rest = Substring(body)
    while let open = rest.range(of: "${") {
      result += rest[..<open.lowerBound]
      var depth = 1
      var index = open.upperBound
      while index < rest.endIndex, depth > 0 {
        if rest[index] == "{" { depth += 1 }
        if rest[index] == "}" { depth -= 1 }
        index = rest.index(after: index)
      }
      result += "{\(names.next() ?? "")}"
      rest = rest[index...]
    }
    return result + rest
  }

  @Test func theScriptSpeaksTheSitesLanguage() {
    var japanese = UIStrings.builtIn("ja")
    japanese.set("filterAdded", "フィルタ「{value}」（{label}）を追加")
    let source = Array(
      """
      announce(/*t:filterAdded*/`Added filter ${token.label}: ${token.value}`)
      count(n, /*t:results*/{ one: '{count} result', other: '{count} results' })
      say(/*t:recentsCleared*/'Recent searches cleared', /*t:noSuchKey*/'kept')
      if (/*t:direction*/'ltr' === 'rtl') flip()
      if (/*t:snowball*/'any' && stems) forms()
      """.utf8)
    let out = String(decoding: ScriptStrings.apply(japanese, to: source), as: UTF8.self)
    // The names move with the words; ja has one form of a count.
    #expect(out.contains("announce(`フィルタ「${token.value}」（${token.label}）を追加`)"), "\(out)")
    #expect(out.contains("count(n, {other:\"{count}件\"})"), "\(out)")
    #expect(out.contains("say(\"最近の検索を消去しました\", /*t:noSuchKey*/'kept')"), "\(out)")
    #expect(out.contains("if (\"ltr\" === 'rtl')"), "\(out)")
    // Snowball has no Japanese; it has Spanish, and English keeps its own rules.
    #expect(out.contains("if (\"\" && stems)"), "\(out)")
    #expect(
      String(decoding: ScriptStrings.apply(.builtIn("es"), to: source), as: UTF8.self).contains(
        "if (\"es\" && stems)"))
    #expect(
      String(decoding: ScriptStrings.apply(.builtIn("en"), to: source), as: UTF8.self).contains(
        "if (\"\" && stems)"))
    let arabic = String(decoding: ScriptStrings.apply(.builtIn("ar"), to: source), as: UTF8.self)
    #expect(
      arabic.contains("zero:\"لا نتائج\",one:\"نتيجة واحدة\",two:\"نتيجتان\",few:\"{count} نتائج\""),
      "\(arabic)")
    #expect(arabic.contains("if (\"rtl\" === 'rtl')"), "\(arabic)")
    // A text with a backtick, a dollar or a quote stays one literal.
    var odd = UIStrings.builtIn("en")
    odd.set("filterAdded", "`$5` \\ {label}")
    odd.set("recentsCleared", "say \"hi\"\n")
    let escaped = String(decoding: ScriptStrings.apply(odd, to: source), as: UTF8.self)
    #expect(escaped.contains("announce(`\\`\\$5\\` \\\\ ${token.label}`)"), "\(escaped)")
    #expect(escaped.contains("say(\"say \\\"hi\\\"\\n\""), "\(escaped)")
  }

  /// The forms a count takes agree with the browser's: `Intl.PluralRules`
  /// in node, over 0…1,000 in every language with a catalogue.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/node")))
  func pluralFormsAgreeWithTheBrowsers() throws {
    let codes = Catalogue.all.keys.sorted()
    let script =
      "const codes = [\(codes.map { "'\($0)'" }.joined(separator: ","))];"
      + "console.log(JSON.stringify(Object.fromEntries(codes.map((c) => [c, Array.from({ length: 1001 }, (_, n) => new Intl.PluralRules(c).select(n))]))))"
    let result = try runProcess("/usr/bin/node", ["-e", script])
    let browser = try JSONDecoder().decode([String: [String]].self, from: Data(result.stdout))
    for code in codes {
      let ours = (0...1000).map { PluralRules.category($0, code) }
      let theirs = try #require(browser[code])
      let differ = (0...1000).filter { ours[$0] != theirs[$0] }.prefix(5)
      #expect(differ.isEmpty, "\(code): \(differ.map { "\($0): \(ours[$0]) ≠ \(theirs[$0])" })")
      #expect(Set(theirs).isSubset(of: Set(PluralRules.categories(code))), "\(code)")
    }
  }

  /// The records fixture (built-in theme) with `edits` to its config.
  static func project(_ edits: [(String, String)]) throws -> TemporaryProject {
    let project = try TemporaryProject()
    var text = try String(
      contentsOf: fixturesRoot.appendingPathComponent("records/site.yml"), encoding: .utf8
    ).replacingOccurrences(of: "../mini/data/", with: "data/")
    for (old, new) in edits {
      try #require(text.contains(old), "no \(old)")
      text = text.replacingOccurrences(of: old, with: new)
    }
    try project.write("site.yml", text)
    return project
  }

  @Test func aJapaneseSiteSpeaksJapaneseAndAnEnglishOneIsUnchanged() throws {
    let project = try Self.project([("title: Records\n", "title: Records\nlanguage: ja\n")])
    defer { project.remove() }
    _ = try project.build()
    let search = try project.read("site/index.html")
    #expect(search.contains("<html lang=\"ja\" data-mode"))
    for text in ["検索結果へスキップ", ">キャンセル</button>", "aria-label=\"テキストを消去\"", "最近の検索", "検索結果なし"] {
      #expect(search.contains(text), "\(text)")
    }
    for english in ["Cancel", "No Results", "Skip to results", "Recently Searched", "Clear text"] {
      #expect(!search.contains(english), "\(english) is still English")
    }
    let notFound = try project.read("site/404.html")
    #expect(notFound.contains("<h1>ページが見つかりません</h1>") && notFound.contains("generate で作成"))
    let browse = try project.read("site/browse/index.html")
    #expect(browse.contains("aria-label=\"パンくずリスト\"") || browse.contains("<h1>Recordsを見る</h1>"), "\(browse)")
    let script = try project.snapshot().first { $0.key.hasSuffix("js/app.js") }.map {
      String(decoding: $0.value, as: UTF8.self)
    }
    #expect(script?.contains("候補なし") == true)
    #expect(script?.contains("No suggestions") == false)

    let english = try Self.project([])
    defer { english.remove() }
    _ = try english.build()
    let page = try english.read("site/index.html")
    #expect(page.contains("<html lang=\"en\" data-mode") && page.contains(">Cancel</button>"))
  }

  @Test func anArabicSiteIsRightToLeft() throws {
    let project = try Self.project([("title: Records\n", "title: Records\nlanguage: ar\n")])
    defer { project.remove() }
    _ = try project.build()
    #expect(try project.read("site/index.html").contains("<html lang=\"ar\" dir=\"rtl\" data-mode"))
    #expect(try project.read("site/404.html").contains("<html lang=\"ar\" dir=\"rtl\">"))
    let files = try project.snapshot()
    let style = files.first { $0.key.hasSuffix("css/search-page.css") }.map {
      String(decoding: $0.value, as: UTF8.self)
    }
    #expect(style?.contains("[dir=rtl] .seg-thumb") == true)
    let english = try Self.project([])
    defer { english.remove() }
    _ = try english.build()
    let plain = try english.snapshot().first { $0.key.hasSuffix("css/search-page.css") }.map {
      String(decoding: $0.value, as: UTF8.self)
    }
    #expect(plain?.contains("rtl") == false, "a left-to-right site ships no right-to-left rules")
  }

  @Test func stringsOverrideAnyTextInAnyLanguage() throws {
    let project = try Self.project([
      (
        "title: Records\n",
        "title: Records\nlanguage: de\nstrings:\n  cancel: Schließen\n  records: { one: \"ein Eintrag\", other: \"{count} Einträge\" }\n"
      )
    ])
    defer { project.remove() }
    _ = try project.build()
    let search = try project.read("site/index.html")
    #expect(search.contains(">Schließen</button>"))
    #expect(search.contains("Keine Ergebnisse"), "the rest stays German")
    let hub = try project.read("site/browse/artists/index.html")
    #expect(hub.contains("Einträge") || hub.contains("ein Eintrag"), "\(hub)")
  }

  @Test func aMistakeUnderStringsIsAnErrorAtItsLine() throws {
    let cases: [(String, String)] = [
      ("strings:\n  1️⃣cancl: Close\n", "unknown string 'cancl' under strings (did you mean 'cancel'?)"),
      (
        "strings:\n  goTo: 1️⃣\"Zur {serch}\"\n",
        "goTo has {serch}, which it does not fill in (it fills in {search})"
      ),
      ("strings:\n  noMatchesFor: 1️⃣Nothing.\n", "noMatchesFor must keep {query} (it fills in {query})"),
      (
        "strings:\n  results: { 1️⃣few: \"{count}\" }\n",
        "'few' is not a form counts take in 'en' (its forms: one, other)"
      ),
    ]
    let records = try String(
      contentsOf: fixturesRoot.appendingPathComponent("records/site.yml"), encoding: .utf8)
    for (block, message) in cases {
      // Where the marker lands in the whole file, with the block after the title.
      let marked = Marked(
        records.replacingOccurrences(of: "title: Records\n", with: "title: Records\n" + block))
      let project = try Self.project([])
      defer { project.remove() }
      try project.write("site.yml", marked.text.replacingOccurrences(of: "../mini/data/", with: "data/"))
      let rendered = expectBuildFailure(project).map(\.description)
      let at = "site.yml:\(marked.line):\(marked.column): error: "
      #expect(rendered.contains { $0.contains(at + message) }, "\(rendered)")
    }
  }

  @Test func aLanguageWithoutACatalogueFallsBackToEnglishWithAWarning() throws {
    let strings = UIStrings.builtIn("xh")
    #expect(strings.catalogue == "en" && strings.text("cancel") == "Cancel")
    #expect(UIStrings.builtIn("pt-BR").catalogue == "pt")
    let project = try Self.project([("title: Records\n", "title: Records\nlanguage: xh\n")])
    defer { project.remove() }
    let summary = try project.build()
    let warnings = summary.warnings.map { "\($0)" }
    #expect(
      warnings.contains { $0.contains("no built-in interface strings for language 'xh'") }, "\(warnings)")
  }
}
