import Foundation
import Testing

@testable import GenerateKit

/// The benchmark's template sets (`Tests/bench/templates/`), written as
/// users write templates — their own base template with blocks, layouts,
/// many small partials, inverted and nested sections, dotted names, lists
/// of records through `refs` and a join table — render as swift-mustache
/// renders them, over 60 of Debian's packages (`sample/`): every page
/// `CompiledRenderer` writes for them is byte for byte the oracle's.
@Suite struct UserTemplatesTests {
  static let sets = packageRoot.appendingPathComponent("Tests/bench/templates")

  /// A set in the test fixtures rather than the benchmark's (no Hugo twin).
  static let fixtureSets = packageRoot.appendingPathComponent("Tests/GenerateKitTests/Fixtures")

  /// A folder with the set's config, templates and data files, or the
  /// Debian sample's tables for a set that brings none.
  static func project(_ name: String, in sets: URL = sets) throws -> URL {
    let files = FileManager.default
    let root = files.temporaryDirectory.appendingPathComponent("generate-user-templates-\(UUID().uuidString)")
    try files.createDirectory(at: root, withIntermediateDirectories: true)
    let set = sets.appendingPathComponent(name)
    var ownData = false
    for file in try files.contentsOfDirectory(atPath: set.path) where file != "hugo" && file != "set.json" {
      try files.copyItem(at: set.appendingPathComponent(file), to: root.appendingPathComponent(file))
      if [".csv", ".json", ".jsonl"].contains(where: file.hasSuffix) { ownData = true }
    }
    if ownData { return root }
    let sample = Self.sets.appendingPathComponent("sample")
    for file in try files.contentsOfDirectory(atPath: sample.path) {
      try files.copyItem(at: sample.appendingPathComponent(file), to: root.appendingPathComponent(file))
    }
    return root
  }

  /// Sets written from the docs alone: the benchmark's, and the fixtures'
  /// (`stranger-templates`; round 2's a theme with its own layout,
  /// `theme`, a table catalogue over Gapminder and a card grid over a
  /// JSON of nested objects and lists, in `stranger-templates-2/`; round
  /// 3's a Hugo-like blog with taxonomies, a shop with prices and sales,
  /// and a handbook of topics nested through a parent reference, in
  /// `stranger-templates-3/`; round 4's podcasts with an RSS feed per show,
  /// a table of tracks per genre, and museums in three languages through
  /// one parent template, in `stranger-templates-4/`).
  static let allSets = [
    "minimal", "verbose", "layout", "theme", "stranger-templates", "stranger-templates-2/catalogue",
    "stranger-templates-2/cards", "stranger-templates-3/blog", "stranger-templates-3/shop",
    "stranger-templates-3/docs", "stranger-templates-4/podcast", "stranger-templates-4/table",
    "stranger-templates-4/multilingual",
  ]

  /// What Swift writes for a value it has no text for: never on a page.
  static let swiftDescriptions = [
    "GenerateKit.", "Optional(", "ReversedCollection", "[\"", "\": \"", "AnyHashable",
  ]

  @Test(arguments: allSets)
  func rendersAsMustacheDoes(_ name: String) throws {
    let root = try Self.project(name, in: name.hasPrefix("stranger") ? Self.fixtureSets : Self.sets)
    defer { try? FileManager.default.removeItem(at: root) }
    let site = try preparedSite(config: root.appendingPathComponent("site.yml").path)
    let set = try TemplateSet.load(
      directories: [root.appendingPathComponent("templates").path], builtIn: true)
    let contexts = CompiledRendererTests.pageContexts(site, set)
    // The search and 404 pages, and every record's page.
    #expect(contexts.count > 30)
    let library = try MustacheOracle.library(set)
    var written = 0
    for (template, context) in contexts {
      let mustache = library.render(context, withTemplate: template).map { Array($0.utf8) }
      let ours = set.render(context, withTemplate: template)
      #expect(ours == mustache, "\(name): \(template)")
      let text = String(decoding: ours ?? [], as: UTF8.self)
      for leak in Self.swiftDescriptions where template != "search" {
        #expect(!text.contains(leak), "\(name): \(template) prints \(leak)")
      }
      written += ours?.count ?? 0
    }
    #expect(written > 50_000)
    // Every value read as pages' own types: what `--verbose` reports as
    // every page rendered by the compiled renderer.
    #expect(set.genericReads.reads.isEmpty, "\(name): \(set.genericReads.reads)")
  }

  /// A partial that is not UTF-8 is one error, at its first bad byte: the
  /// templates that include it are not also told it does not exist, and
  /// the theme's file of the same name does not stand in for it.
  @Test func aPartialThatIsNotUTF8IsOneError() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "generate-utf8-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("partials"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("<main>{{> card}}{{> footer}}</main>".utf8).write(
      to: folder.appendingPathComponent("page.mustache"))
    for name in ["card", "footer"] {
      try Data(Array("<p>caf".utf8) + [0xE9] + Array(" {{title}}</p>".utf8)).write(
        to: folder.appendingPathComponent("partials/\(name).mustache"))
    }
    let error = try #require(throws: DiagnosticsError.self) {
      try TemplateSet.load(directories: [folder.path], builtIn: true)
    }
    let messages = error.diagnostics.map(\.description)
    #expect(messages.count == 2, "\(messages)")
    #expect(
      messages.allSatisfy { $0.contains(".mustache:1:7: error: template is not valid UTF-8") }, "\(messages)")
  }

  /// The sets' own templates are what pages are made of: a dependency's
  /// summary through the `refs` list, a tag through the join table, the
  /// user's layout around the built-in `art` partial.
  @Test func pagesShowWhatTheTemplatesAskFor() throws {
    var cases: [(set: String, template: String, needles: [String])] = [
      (
        "verbose", "package",
        ["<h2>Depends on", "<span class=\"summary\">", "class=\"tag\"", "Maintained by"]
      ),
      (
        "layout", "pkg",
        ["class=\"skip-link\"", "class=\"art", "<h2>Depends on</h2>", "<dt>Installed size</dt>"]
      ),
      ("minimal", "package", ["<dt>Section</dt><dd><a href=\"/sections/"]),
      // Three levels of inheritance, index() over reversed(), changed
      // delimiters, a CRLF page and its partials four deep.
      (
        "stranger-templates", "section",
        ["<li value=\"1\">", "(least popular)", "level 3 aside", "<p>top: "]
      ),
      (
        "stranger-templates", "package",
        ["<pre>\r\n", "<span class=\"meta\">", "<p class=\"level\">page</p>"]
      ),
      // Round 2: a layout of one's own with blocks, header and footer
      // partials, a partial indented inside <dl>.
      (
        "theme", "package",
        [
          "<title>adduser – Packages</title>", "<header class=\"site-header\">",
          "<footer class=\"site-footer\">",
          "<dl class=\"facts\">\n          <dt>Version</dt>\n          <dd>",
          "<body class=\"page page--package\">",
        ]
      ),
      ("theme", "section", ["<h1>Section admin</h1>", "<ol class=\"packages\">"]),
      // A table catalogue: holes shown by inverted sections, separators
      // by {{^last()}}, a row number by plusone(index()).
      (
        "stranger-templates-2/catalogue", "country",
        [
          "<td><abbr title=\"no figure\">n/a</abbr></td>", "Years: 1952, 1957, ", "class=\"even\"",
          "<tr id=\"y2007\"",
        ]
      ),
      (
        "stranger-templates-2/catalogue", "browse",
        ["<td>1</td>", " › ", "<caption>", "<p class=\"letters\"><a href="]
      ),
      // Cards: a nested object opened as one, its missing url nothing, a
      // list column item by item with {{.}}, HTML from the data unescaped.
      (
        "stranger-templates-2/cards", "game",
        [
          "<a href=\"https://brettspiel.example\">Brettspiel &amp; Söhne</a> (DE)",
          "Published by Maison Ludique (FR)",
          "<div class=\"blurb\"><p>A game of <em>", "<li class=\"chip\">", "players · ", "Self-published",
          "<li>Chen Wei</li>",
        ]
      ),
      (
        "stranger-templates-2/cards", "shelf",
        [
          "<li class=\"card\">", "<img src=\"https://images.example.org/games/",
          "<span class=\"card__tags\">",
        ]
      ),
      // Round 3. A blog: a base template whose nav partial a page marks
      // through a block, a reference printed as its record's title, a
      // partial chosen by the data, a gallery of child records, an author
      // with no posts, a taxonomy page listing its posts.
      (
        "stranger-templates-3/blog", "post",
        [
          "<title>A quote I keep · Field Notes</title>",
          "· by <a rel=\"author\" href=\"/authors/li/\">Li &quot;Lou&quot; Wen</a>",
          "<footer>— John Culkin</footer>",
          "<figcaption>Frame 2 of Winter gallery <small>(2 of 3)</small></figcaption>",
          "<p class=\"tags\">Tags: <a href=\"/tags/photos/\">photos</a>, ",
          "<p>Filed under notes in 2024.</p>",
          "<p><a href=\"https://lou.example/~li\">Website</a></p>", "<p>No bio yet.</p>",
        ]
      ),
      (
        "stranger-templates-3/blog", "author",
        [
          "<p class=\"empty\">Sam O&#39;Neill has not written anything yet.</p>", "<p>0 posts</p>",
          "4 posts; latest: <a href=\"/posts/p14/\">Tea &amp; maps</a>", "· by Jon Åberg · 10 min",
        ]
      ),
      (
        "stranger-templates-3/blog", "tag",
        [
          "<a href=\"/browse/tags/\" aria-current=\"page\">Tags</a>",
          "3 posts: Notes on &lt;noscript&gt;, Why static sites?, Ten small tools",
        ]
      ),
      (
        "stranger-templates-3/blog", "list",
        ["<a href=\"/essays/\" data-section=\"essays\">", "data-n=\"2\""]
      ),
      // A shop: prices with two decimals, a sale and its inverted twin,
      // breadcrumbs through a parent partial's block, variants from an
      // array of objects, an empty category.
      (
        "stranger-templates-3/shop", "product",
        [
          "<del>$89.95</del> <ins>$74.95</ins>", "<span class=\"badge\">Save $15.00</span>",
          "<del>$1,299.00</del> <ins>$999.00</ins>",
          "<p class=\"stock stock--out\">Sold out — <a href=\"/shop/knives/\">see other Knives</a></p>",
          "<li><a href=\"/shop/kettles/\">Kettles &amp; Pots</a></li>", "<li>Large</li>", "<p>One size.</p>",
          "<dd>hand wash only</dd>", "no reviews yet", "Product · Kettles &amp; Pots · Volt",
        ]
      ),
      (
        "stranger-templates-3/shop", "category",
        ["6 products, from $29.00 to $219.00.", "<p class=\"empty\">Nothing in Gift cards yet.</p>"]
      ),
      (
        "stranger-templates-3/shop", "brand",
        ["5 products: Stovetop kettle, Cast-iron pot, Milk pan, Whistling kettle, Dutch oven 5 L &amp; lid"]
      ),
      // A handbook: breadcrumbs three parents up, a table of contents as
      // deep as the topics go, a layout's sidebar filled through a block.
      (
        "stranger-templates-3/docs", "topic",
        [
          "<li><a href=\"/guides/\">Guides</a></li><li><a href=\"/templates/\">Writing templates</a></li><li><a href=\"/blocks/\">Blocks &amp; layouts</a></li>",
          "<li><a href=\"/deep/\">Blocks inside partials</a>",
          "<h2 class=\"sidebar__heading\">In Blocks &amp; layouts</h2>",
          "<p class=\"up\">Up: <a href=\"/blocks/\">Blocks &amp; layouts</a></p>",
          "<p class=\"updated\">Never updated.</p>",
          "<p class=\"last\">Last: <a href=\"/deploy/\">Deploying</a></p>",
        ]
      ),
    ]
    cases += [
      // Podcasts: dates through date(), computed numbers as a person writes
      // them, an RSS feed per show with rfc822 dates and escaped text.
      (
        "stranger-templates-4/podcast", "show",
        [
          "<p class=\"stats\">4 episodes, 3.32 hours in all, 49.7958333333333 minutes on average</p>",
          "type=\"application/rss+xml\" title=\"Tea &amp; Code\"",
        ]
      ),
      (
        "stranger-templates-4/podcast", "episode",
        ["<p class=\"when\">January 9, 2024 · 45:10 (45.1666666666667 min)</p>"]
      ),
      (
        "stranger-templates-4/podcast", "feed",
        [
          "<pubDate>Tue, 09 Jan 2024 07:00:00 +0000</pubDate>",
          "<title>Types &lt;T&gt; and tea leaves</title>",
          "<lastBuildDate>Tue, 09 Apr 2024 07:00:00 +0000</lastBuildDate>",
          "<itunes:explicit>false</itunes:explicit>",
        ]
      ),
      // A wide table per genre, numbers formatted in the config.
      (
        "stranger-templates-4/table", "genre-table",
        [
          "<caption>76 tracks in Rock</caption>", "29.2307692307692 % of all tracks",
          "<tr><td class=\"num\">1</td><td>For Those About To Rock (We Salute You)</td>",
          "<td class=\"num\">0.99</td></tr>",
        ]
      ),
      // One record in three languages: labels from a parent's blocks,
      // dates in the page's own language.
      (
        "stranger-templates-4/multilingual", "museum-de",
        [
          "<html lang=\"de\">", "<dt>Stadt</dt><dd>Berlin</dd>", "2. Oktober 1930",
          "<p class=\"kind\">Antike</p>",
          "12 €",
        ]
      ),
      (
        "stranger-templates-4/multilingual", "museum-fr",
        ["<html lang=\"fr\">", "jeudi 2 octobre 1930", "<p class=\"kind\">Antiquités</p>"]
      ),
      (
        "stranger-templates-4/multilingual", "museum-en",
        ["<html lang=\"en\">", "October 2, 1930", "€12.00", "<p class=\"kind\">Antiquities</p>"]
      ),
    ]
    for (name, template, needles) in cases {
      let root = try Self.project(name, in: name.hasPrefix("stranger") ? Self.fixtureSets : Self.sets)
      defer { try? FileManager.default.removeItem(at: root) }
      let site = try preparedSite(config: root.appendingPathComponent("site.yml").path)
      let set = try TemplateSet.load(
        directories: [root.appendingPathComponent("templates").path], builtIn: true)
      let pages = CompiledRendererTests.pageContexts(site, set).filter { $0.0 == template }.compactMap {
        set.render($0.1, withTemplate: template).map { String(decoding: $0, as: UTF8.self) }
      }
      #expect(!pages.isEmpty, "\(name)")
      for needle in needles {
        #expect(pages.contains { $0.contains(needle) }, "\(name): \(needle)")
      }
    }
  }
}
