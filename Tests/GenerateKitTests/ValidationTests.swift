import Foundation
import GenerateKit
import Testing

/// Swift Testing has its own `SourceLocation`; these tests mean the site's.
private typealias SourceLocation = GenerateKit.SourceLocation

// MARK: - Location markers

/// Inline markup with location markers (`1️⃣`, `2️⃣`…) that say where a
/// diagnostic must point. The markers are removed from `bytes`; each one's
/// place is kept as a 1-based line and a column counted in Unicode scalars,
/// as libxml2 and the validator count them.
private struct MarkedPage {
  var bytes: [UInt8]
  var markers: [Character: SourceLocation]

  init(_ text: String, file: String = "page.html") {
    bytes = []
    markers = [:]
    var line = 1
    var column = 1
    for character in text {
      if MarkedPage.markerCharacters.contains(character) {
        if markers[character] != nil { Issue.record("marker \(character) used twice") }
        markers[character] = SourceLocation(file: file, line: line, column: column)
        continue
      }
      bytes += Array(String(character).utf8)
      if character == "\n" {
        line += 1
        column = 1
      } else {
        column += character.unicodeScalars.count
      }
    }
  }

  static let markerCharacters: Set<Character> = ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣"]

  /// The location of a marker; fails the test (and points at line 1) when
  /// the marker is missing, so a typo cannot pass silently.
  subscript(_ marker: Character) -> SourceLocation {
    guard let location = markers[marker] else {
      Issue.record("no marker \(marker) in the text")
      return SourceLocation(file: "missing-marker")
    }
    return location
  }
}

/// A complete, valid page around `body`; `head` is added at the end of the
/// head element.
private func page(_ body: String, head: String = "", htmlAttributes: String = " lang=\"en\"") -> String {
  """
  <!DOCTYPE html>
  <html\(htmlAttributes)>
  <head>
  <meta charset="utf-8" />
  <title>Test page</title>
  <meta name="description" content="A page for the validator tests." />\(head)
  </head>
  <body>
  \(body)
  </body>
  </html>

  """
}

private let validator = HTMLValidator()

/// Checks marked text as `page.html` and returns the diagnostics.
private func diagnostics(_ marked: MarkedPage) -> [Diagnostic] {
  validator.check(marked.bytes, path: "page.html").diagnostics
}

// MARK: - A valid page

/// A realistic generated page: site chrome, a search form with a datalist,
/// ARIA wiring, a table with headers, an SVG sprite, a template, JSON-LD.
private let realisticPage = """
  <!DOCTYPE html>
  <html lang="en" xmlns="http://www.w3.org/1999/xhtml">
  <head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>AC/DC – Music</title>
  <meta name="description" content="Albums and tracks by AC/DC." />
  <link rel="stylesheet" href="/assets/3f2a/site.css" />
  <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
  <link rel="canonical" href="https://example.org/artists/1-ac-dc/" />
  <script type="module" src="/assets/3f2a/app.js"></script>
  <script type="application/ld+json">{"@context": "https://schema.org", "@type": "MusicGroup", "name": "AC/DC"}</script>
  </head>
  <body>
  <a class="skip" href="#main">Skip to content</a>
  <header class="site">
    <nav aria-label="Site">
      <ul><li><a href="/">Home</a></li><li><a href="/artists/" aria-current="page">Artists</a></li></ul>
    </nav>
    <search>
      <form action="/search/" method="get">
        <label for="q">Search</label>
        <input id="q" name="q" type="search" list="suggestions" aria-controls="results"
               aria-describedby="q-hint" aria-activedescendant="" autocomplete="off" />
        <datalist id="suggestions"><option value="Rock"></option></datalist>
        <p id="q-hint">Try an artist&#160;or an album — “Back in Black”.</p>
        <button type="button" aria-controls="filters" aria-expanded="false">Filters</button>
      </form>
    </search>
  </header>
  <main id="main">
    <h1 id="top">AC/DC</h1>
    <div id="filters" hidden="hidden"><p>Genre</p></div>
    <ol id="results" aria-live="polite"></ol>
    <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="0" height="0" aria-hidden="true">
      <symbol id="icon-play" viewBox="0 0 16 16"><path d="M4 2l10 6-10 6z" /></symbol>
    </svg>
    <img src="/img/cover.jpg" srcset="/img/cover.jpg 1x, /img/cover@2x.jpg 2x" alt="Cover of Back in Black" width="300" height="300" />
    <table>
      <thead><tr><th id="h-title">Title</th><th id="h-time">Length</th></tr></thead>
      <tbody><tr><td headers="h-title">Hells Bells</td><td headers="h-time">5:12</td></tr></tbody>
    </table>
    <button type="button" class="play"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16" aria-hidden="true"><use href="#icon-play" /></svg>Play</button>
    <button type="button"><svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 16 16" aria-hidden="true"><use xlink:href="#icon-play" /></svg>Again</button>
    <p><a href="#top">Back to top</a> · <a href="../">Up</a> · <a href="mailto:music@example.org">Mail</a></p>
    <template id="result-template"><li class="result"><a href=""><span class="title"></span></a></li></template>
  </main>
  <footer><p>Data: Chinook &#169; 2008 &amp; Gapminder</p></footer>
  </body>
  </html>

  """

@Test func realisticPageHasNoDiagnostics() {
  let report = validator.check(Array(realisticPage.utf8), path: "artists/1-ac-dc/index.html")
  #expect(report.diagnostics == [])
  #expect(
    report.ids == [
      "q", "suggestions", "q-hint", "main", "top", "filters", "results", "icon-play", "h-title", "h-time",
      "result-template",
    ])
}

@Test func pageWithoutXHTMLNamespaceIsValidToo() {
  let withoutNamespace = realisticPage.replacingOccurrences(
    of: " xmlns=\"http://www.w3.org/1999/xhtml\"", with: "")
  #expect(withoutNamespace != realisticPage)
  #expect(validator.check(Array(withoutNamespace.utf8), path: "page.html").diagnostics == [])
}

@Test func linksAreCollectedWithTheirAttributesAndPlaces() {
  let marked = MarkedPage(
    page(
      """
      <a 1️⃣href="/artists/?sort=name#list">Artists</a>
      <img 2️⃣src="/img/a.jpg" alt="" 3️⃣srcset="/img/a,1.jpg 1x,/img/a@2x.jpg 2x" />
      <form 4️⃣action="/search/"><button 5️⃣formaction="/other/">Go</button></form>
      <video 6️⃣poster="/img/p.jpg"></video>
      """,
      head: "\n<meta http-equiv=\"refresh\" content=\"5; url=/elsewhere/\" />"))
  let report = validator.check(marked.bytes, path: "page.html")
  #expect(report.diagnostics == [])
  #expect(
    report.links == [
      PageLink(target: "/artists/?sort=name#list", attribute: "href", location: marked["1️⃣"]),
      PageLink(target: "/img/a.jpg", attribute: "src", location: marked["2️⃣"]),
      PageLink(target: "/img/a,1.jpg", attribute: "srcset", location: marked["3️⃣"]),
      PageLink(target: "/img/a@2x.jpg", attribute: "srcset", location: marked["3️⃣"]),
      PageLink(target: "/search/", attribute: "action", location: marked["4️⃣"]),
      PageLink(target: "/other/", attribute: "formaction", location: marked["5️⃣"]),
      PageLink(target: "/img/p.jpg", attribute: "poster", location: marked["6️⃣"]),
    ])
}

// MARK: - Well-formedness (libxml2's errors, at libxml2's positions)

@Test func unclosedTagIsOneErrorWithoutCascade() {
  // libxml2 notices at the end of the `</p>` that `<span>` was never closed.
  let marked = MarkedPage(page("<p><span>text</p>1️⃣"))
  #expect(
    diagnostics(marked) == [.error(at: marked["1️⃣"], "Opening and ending tag mismatch: span line 9 and p")])
}

@Test func misnestedTags() {
  let marked = MarkedPage(page("<p><b><i>x</b>1️⃣</i></p>"))
  #expect(diagnostics(marked) == [.error(at: marked["1️⃣"], "Opening and ending tag mismatch: i line 9 and b")])
}

@Test func unclosedVoidElement() {
  let marked = MarkedPage(page("<p>a<br>b</p>1️⃣"))
  #expect(
    diagnostics(marked) == [.error(at: marked["1️⃣"], "Opening and ending tag mismatch: br line 9 and p")])
}

@Test func bareAmpersandsAreEachReported() {
  let marked = MarkedPage(page("<p>Tom &1️⃣ Jerry</p>\n<p>Salt &2️⃣ Pepper</p>"))
  let message = "xmlParseEntityRef: no name (write a literal \"&\" as &amp;)"
  #expect(diagnostics(marked) == [.error(at: marked["1️⃣"], message), .error(at: marked["2️⃣"], message)])
}

@Test func strayLessThan() {
  // libxml2 points just past the "<".
  let marked = MarkedPage(page("<p>1 <1️⃣ 2</p>"))
  #expect(
    diagnostics(marked) == [
      .error(at: marked["1️⃣"], "StartTag: invalid element name (write a literal \"<\" as &lt;)")
    ])
}

@Test func namedEntityIsNotXML() {
  let marked = MarkedPage(page("<p>a&nbsp;1️⃣b</p>"))
  #expect(
    diagnostics(marked) == [
      .error(
        at: marked["1️⃣"],
        "Entity 'nbsp' not defined (the XML syntax knows no HTML named entities: write a numeric reference such as &#160;)"
      )
    ])
}

@Test func duplicateAttribute() {
  let marked = MarkedPage(page("<p class=\"a\" class=\"b\"1️⃣>x</p>"))
  #expect(diagnostics(marked) == [.error(at: marked["1️⃣"], "Attribute class redefined")])
}

@Test func undeclaredNamespacePrefix() {
  let marked = MarkedPage(page("<svg><use 2️⃣xlink:href=\"#i\" 1️⃣/></svg><p id=\"i\">i</p>"))
  let report = validator.check(marked.bytes, path: "page.html")
  #expect(
    report.diagnostics == [.error(at: marked["1️⃣"], "Namespace prefix xlink for href on use is not defined")])
  // The attribute is still read (as `xlink:href`) for the other checks.
  #expect(report.links == [PageLink(target: "#i", attribute: "xlink:href", location: marked["2️⃣"])])
}

@Test func xmlFilesAreCheckedForWellFormednessOnly() {
  let good = Array(#"<?xml version="1.0" encoding="UTF-8"?><urlset><url><loc>/a/</loc></url></urlset>"#.utf8)
  #expect(validator.checkXML(good, path: "sitemap.xml") == [])

  let marked = MarkedPage("<urlset>\n<url><loc>/a/</url>1️⃣\n</urlset>", file: "sitemap.xml")
  #expect(
    validator.checkXML(marked.bytes, path: "sitemap.xml") == [
      .error(at: marked["1️⃣"], "Opening and ending tag mismatch: loc line 2 and url")
    ])
  #expect(
    validator.checkXML([], path: "empty.xml") == [
      .error(at: SourceLocation(file: "empty.xml"), "file is empty")
    ])
}

// MARK: - What every page needs

@Test func missingDoctype() {
  let marked = MarkedPage(page("<p>x</p>").replacingOccurrences(of: "<!DOCTYPE html>\n", with: "1️⃣"))
  #expect(diagnostics(marked) == [.error(at: marked["1️⃣"], "page must start with \"<!DOCTYPE html>\"")])
}

@Test func missingLang() {
  let marked = MarkedPage(
    page("<p>x</p>", htmlAttributes: "").replacingOccurrences(of: "<html>", with: "1️⃣<html>"))
  #expect(diagnostics(marked) == [.error(at: marked["1️⃣"], "html element needs a non-empty lang attribute")])

  let blank = MarkedPage(
    page("<p>x</p>", htmlAttributes: " lang=\" \"").replacingOccurrences(of: "<html", with: "1️⃣<html"))
  #expect(diagnostics(blank) == [.error(at: blank["1️⃣"], "html element needs a non-empty lang attribute")])
}

@Test func missingTitleAndDescription() {
  let text = page("<p>x</p>")
    .replacingOccurrences(of: "<head>", with: "1️⃣<head>")
    .replacingOccurrences(of: "<title>Test page</title>", with: "<title> </title>")
    .replacingOccurrences(of: "content=\"A page for the validator tests.\"", with: "content=\"\"")
  let marked = MarkedPage(text)
  #expect(
    diagnostics(marked) == [
      .error(at: marked["1️⃣"], "head needs a title element with text"),
      .error(at: marked["1️⃣"], "head needs <meta name=\"description\"> with non-empty content"),
    ])
}

// MARK: - Ids and references

@Test func duplicateIDPointsAtTheSecondAndNamesTheFirstLine() {
  let marked = MarkedPage(page("<h2 id=\"tracks\">Tracks</h2>\n<ol 1️⃣id=\"tracks\"></ol>"))
  #expect(diagnostics(marked) == [.error(at: marked["1️⃣"], "duplicate id \"tracks\" (first used on line 9)")])
}

@Test func brokenAriaControls() {
  let marked = MarkedPage(
    page(
      """
      <button type="button" 1️⃣aria-controls="menu panel">Menu</button>
      <div id="panel"></div>
      """))
  #expect(
    diagnostics(marked) == [
      .error(at: marked["1️⃣"], "aria-controls refers to \"menu\", which is not an id on this page")
    ])
}

@Test func labelForMissingID() {
  let marked = MarkedPage(page("<label 1️⃣for=\"email\">Email</label> <input id=\"e-mail\" />"))
  #expect(
    diagnostics(marked) == [
      .error(at: marked["1️⃣"], "label for refers to \"email\", which is not an id on this page")
    ])
}

@Test func inputListMissingDatalist() {
  let marked = MarkedPage(page("<input id=\"q\" 1️⃣list=\"suggestions\" /><label for=\"q\">Q</label>"))
  #expect(
    diagnostics(marked) == [
      .error(at: marked["1️⃣"], "list refers to \"suggestions\", which is not an id on this page")
    ])
}

@Test func fragmentLinksMustReachAnID() {
  let marked = MarkedPage(
    page(
      """
      <a 1️⃣href="#">Nowhere</a>
      <a 2️⃣href="#missing">Missing</a>
      <a href="#caf%C3%A9">Percent-encoded</a> <h2 id="café">Café</h2>
      """))
  #expect(
    diagnostics(marked) == [
      .error(at: marked["1️⃣"], "href=\"#\" points nowhere; link to an id, or use a button"),
      .error(at: marked["2️⃣"], "href=\"#missing\" points to no id on this page"),
    ])
}

@Test func templateContentIsItsOwnScope() {
  let marked = MarkedPage(
    page(
      """
      <template id="row"><li id="item"><button aria-controls="item main">x</button></li></template>
      <template id="other"><li 1️⃣id="item"></li></template>
      <main id="main"><a 2️⃣href="#item">Item</a></main>
      """))
  let report = validator.check(marked.bytes, path: "page.html")
  // Each template may reuse an id and refer to its own ids and the
  // document's; the document cannot see into templates.
  #expect(!report.diagnostics.contains { $0.location == marked["1️⃣"] })
  #expect(report.diagnostics == [.error(at: marked["2️⃣"], "href=\"#item\" points to no id on this page")])
  #expect(report.ids == ["row", "other", "main"])
}

// MARK: - Images and the content security policy

@Test func imageWithoutAlt() {
  // libxml2 points just past the "<".
  let marked = MarkedPage(page("<p>1️⃣<img src=\"/a.png\" /> <img src=\"/b.png\" alt=\"\" /></p>"))
  #expect(
    diagnostics(marked) == [
      .error(at: marked["1️⃣"], "img needs an alt attribute (alt=\"\" if it is decorative)")
    ])
}

@Test func inlineScriptIsBlocked() {
  let marked = MarkedPage(
    page(
      """
      1️⃣<script>document.title = "x";</script>
      <script src="/app.js"></script>
      <script type="application/ld+json">{"name": "x"}</script>
      2️⃣<script type="module">import "/app.js";</script>
      """))
  let message =
    "inline script is blocked by Content-Security-Policy \"default-src 'self'\"; move it to a file loaded with src"
  #expect(diagnostics(marked) == [.error(at: marked["1️⃣"], message), .error(at: marked["2️⃣"], message)])
}

@Test func styleAttributeAndStyleElementAreBlocked() {
  let marked = MarkedPage(
    page("<p 1️⃣style=\"color: red\">x</p>", head: "\n2️⃣<style>p { color: red }</style>"))
  #expect(
    diagnostics(marked) == [
      .error(
        at: marked["2️⃣"],
        "style element is blocked by Content-Security-Policy \"default-src 'self'\"; use a stylesheet file"),
      .error(
        at: marked["1️⃣"],
        "style attribute is blocked by Content-Security-Policy \"default-src 'self'\"; use a class"),
    ])
}

@Test func eventHandlerAttributeIsBlocked() {
  let marked = MarkedPage(page("<button type=\"button\" 1️⃣onclick=\"go()\">Go</button>"))
  #expect(
    diagnostics(marked) == [
      .error(
        at: marked["1️⃣"],
        "event-handler attribute onclick is blocked by Content-Security-Policy \"default-src 'self'\"; add the listener from a script file"
      )
    ])
}

@Test func javascriptURLIsBlocked() {
  let marked = MarkedPage(page("<a 1️⃣href=\" JavaScript:void(0)\">x</a>"))
  #expect(
    diagnostics(marked) == [
      .error(
        at: marked["1️⃣"],
        "javascript: URL is blocked by Content-Security-Policy \"default-src 'self'\"; use a button and a script file"
      )
    ])
}

@Test func offSiteSubresourcesAreBlockedButOffSiteLinksAreNot() {
  let marked = MarkedPage(
    page(
      """
      <img 1️⃣src="https://cdn.example/a.png" alt="" />
      <a href="https://example.org/">Elsewhere</a>
      """,
      head:
        "\n<link rel=\"stylesheet\" 2️⃣href=\"//cdn.example/a.css\" />\n<link rel=\"alternate\" href=\"https://example.org/feed\" />"
    ))
  let policy = "Content-Security-Policy \"default-src 'self'\"; serve the file from the site"
  #expect(
    diagnostics(marked) == [
      .error(at: marked["2️⃣"], "href=\"//cdn.example/a.css\" is blocked by \(policy)"),
      .error(at: marked["1️⃣"], "src=\"https://cdn.example/a.png\" is blocked by \(policy)"),
    ])
}

// MARK: - Positions

@Test func positionsStayExactInLongMultiByteMultiLinePages() {
  // Far beyond libxml2's input chunk (so its buffer is shrunk while
  // parsing), with multi-byte text before the error on the same line and an
  // attribute on a continuation line of its tag.
  let filler = (1...600).map { "<li id=\"i\($0)\">Motörhead — Ace of Spades № \($0)</li>" }.joined(
    separator: "\n")
  let marked = MarkedPage(
    page(
      """
      <ul>
      \(filler)
      </ul>
      <p>Déjà vu — naïve café: <a href="#i1"
         class="x" 1️⃣style="x">é</a> 2️⃣<img src="/a.png" /></p>
      """))
  #expect(marked.bytes.count > 30_000)
  #expect(
    diagnostics(marked) == [
      .error(
        at: marked["1️⃣"],
        "style attribute is blocked by Content-Security-Policy \"default-src 'self'\"; use a class"),
      .error(at: marked["2️⃣"], "img needs an alt attribute (alt=\"\" if it is decorative)"),
    ])
}

@Test func minifiedPageOnOneLine() {
  let text = page("<p>é</p><p>x</p><img src=\"/a.png\" alt=\"\" />1️⃣<img src=\"/b.png\" />")
    .replacingOccurrences(of: "\n", with: "")
  let marked = MarkedPage(text)
  #expect(
    diagnostics(marked) == [
      .error(at: marked["1️⃣"], "img needs an alt attribute (alt=\"\" if it is decorative)")
    ])
}

@Test func concurrentChecksKeepTheirOwnErrors() async {
  let broken = MarkedPage(page("<p>Tom &1️⃣ Jerry</p>"))
  let valid = Array(realisticPage.utf8)
  let results = await withTaskGroup(of: (Bool, [Diagnostic]).self) { group in
    for index in 0..<64 {
      group.addTask {
        index.isMultiple(of: 2)
          ? (true, validator.check(broken.bytes, path: "page.html").diagnostics)
          : (false, validator.check(valid, path: "page.html").diagnostics)
      }
    }
    return await group.reduce(into: []) { $0.append($1) }
  }
  let expected = [
    Diagnostic.error(at: broken["1️⃣"], "xmlParseEntityRef: no name (write a literal \"&\" as &amp;)")
  ]
  #expect(results.count == 64)
  for (isBroken, found) in results {
    #expect(found == (isBroken ? expected : []))
  }
}

// MARK: - Site-wide links

/// Checks marked pages (path → text) as one site and returns the markers of
/// every page plus the diagnostics.
private func checkSite(
  _ pages: [String: String], otherFiles: Set<String> = [], basePath: String = "/"
) -> (markers: [String: MarkedPage], diagnostics: [Diagnostic]) {
  var markers: [String: MarkedPage] = [:]
  var reports: [String: PageReport] = [:]
  for (path, text) in pages {
    let marked = MarkedPage(text, file: path)
    markers[path] = marked
    let report = validator.check(marked.bytes, path: path)
    #expect(report.diagnostics == [], "\(path) should be valid on its own")
    reports[path] = report
  }
  let checker = SiteLinkChecker(files: otherFiles.union(pages.keys), basePath: basePath)
  return (markers, checker.check(pages: reports))
}

private let albumPage = page("<h1 id=\"title\">Album</h1><ol id=\"tracks\"></ol>")

@Test func linkToAMissingPage() {
  let site = checkSite(
    [
      "index.html": page(
        """
        <a href="/albums/1/">One</a> <a 1️⃣href="/albums/9/">Nine</a>
        <a href="https://example.org/missing/">External</a> <a href="mailto:a@example.org">Mail</a>
        <a href="//example.org/x">Host</a> <a href="/assets/app.js?v=2">Script</a>
        """),
      "albums/1/index.html": albumPage,
    ], otherFiles: ["assets/app.js"])
  let index = site.markers["index.html"]
  #expect(
    site.diagnostics == [
      .error(at: index?["1️⃣"], "link \"/albums/9/\" does not resolve to a file in the site")
    ])
}

@Test func folderLinksWithAndWithoutTrailingSlash() {
  let site = checkSite(
    [
      "index.html": page(
        """
        <a href="/albums/1/">Slash</a> <a href="/albums/1">No slash</a> <a href="/albums/1/index.html">File</a>
        <a 1️⃣href="/assets/">Folder without index</a> <a 2️⃣href="/assets/app.js/">File as folder</a>
        <a href="/">Home</a> <a href="?page=2">Same page</a> <a href="">Self</a>
        """),
      "albums/1/index.html": albumPage,
    ], otherFiles: ["assets/app.js"])
  let index = site.markers["index.html"]
  #expect(
    site.diagnostics == [
      .error(at: index?["1️⃣"], "link \"/assets/\" does not resolve to a file in the site"),
      .error(at: index?["2️⃣"], "link \"/assets/app.js/\" does not resolve to a file in the site"),
    ])
}

@Test func siteUnderABasePath() {
  let site = checkSite(
    [
      "index.html": page(
        """
        <a href="/music/">Home</a> <a href="/music">Home without slash</a>
        <a href="/music/albums/1/">One</a> <a 1️⃣href="/music/albums/9/">Nine</a>
        <a 2️⃣href="/albums/1/">Outside</a> <a 3️⃣href="/musical/">Prefix only</a>
        <img src="/music/img/a.jpg" alt="" />
        """),
      "albums/1/index.html": albumPage,
    ], otherFiles: ["img/a.jpg"], basePath: "/music/")
  let index = site.markers["index.html"]
  #expect(
    site.diagnostics == [
      .error(at: index?["1️⃣"], "link \"/music/albums/9/\" does not resolve to a file in the site"),
      .error(at: index?["2️⃣"], "link \"/albums/1/\" is outside the site's base path \"/music/\""),
      .error(at: index?["3️⃣"], "link \"/musical/\" is outside the site's base path \"/music/\""),
    ])
}

@Test func basePathIsNormalized() {
  #expect(SiteLinkChecker(files: [], basePath: "music").basePath == "/music/")
  #expect(SiteLinkChecker(files: [], basePath: "https://example.org/music/").basePath == "/music/")
  #expect(SiteLinkChecker(files: [], basePath: "https://example.org").basePath == "/")
  #expect(SiteLinkChecker(files: [], basePath: "/").basePath == "/")
}

@Test func fragmentOnAnotherPageMustBeAnIDThere() {
  let site = checkSite(
    [
      "index.html": page(
        """
        <a href="/albums/1/#tracks">Tracks</a> <a 1️⃣href="/albums/1/#lyrics">Lyrics</a>
        <a href="albums/1/index.html#title">Title</a> <a href="/albums/1/#">Top</a>
        <a href="/assets/app.js#anything">Not a page</a>
        """),
      "albums/1/index.html": albumPage,
    ], otherFiles: ["assets/app.js"])
  #expect(
    site.diagnostics == [
      .error(
        at: site.markers["index.html"]?["1️⃣"],
        "link \"/albums/1/#lyrics\" points to id \"lyrics\", which is not on albums/1/index.html")
    ])
}

@Test func relativeLinksResolveAgainstThePageFolder() {
  let site = checkSite(
    [
      "index.html": page("<a href=\"artists/1-ac-dc/\">AC/DC</a> <a href=\"./albums/1/\">One</a>"),
      "artists/index.html": page("<a href=\"../\">Home</a> <a href=\"1-ac-dc/\">AC/DC</a>"),
      "artists/1-ac-dc/index.html": page(
        """
        <a href="../">Artists</a> <a href="./">Self</a> <a href="../../albums/1/#tracks">One</a>
        <a 1️⃣href="../../albums/2/">Two</a> <img 2️⃣src="cover.jpg" alt="" />
        <a 3️⃣href="../../../x/">Above</a> <img src="../../img/a%20b.jpg" alt="" />
        """),
      "albums/1/index.html": albumPage,
    ], otherFiles: ["img/a b.jpg"])
  let artist = site.markers["artists/1-ac-dc/index.html"]
  #expect(
    site.diagnostics == [
      .error(at: artist?["1️⃣"], "link \"../../albums/2/\" does not resolve to a file in the site"),
      .error(at: artist?["2️⃣"], "link \"cover.jpg\" does not resolve to a file in the site"),
      .error(at: artist?["3️⃣"], "link \"../../../x/\" goes above the site's root"),
    ])
}

@Test func emptyResourceURL() {
  let site = checkSite(["index.html": page("<img 1️⃣src=\"\" alt=\"\" />")])
  #expect(site.diagnostics == [.error(at: site.markers["index.html"]?["1️⃣"], "src is empty")])
}
