import Foundation
import GenerateKit
import Testing

/// Swift Testing has its own `SourceLocation`; these tests mean the site's.
private typealias SourceLocation = GenerateKit.SourceLocation

// MARK: - A valid page

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
      PageLink(target: "/artists/?sort=name#list", attribute: "href", offset: marked.offset("1️⃣")),
      PageLink(target: "/img/a.jpg", attribute: "src", offset: marked.offset("2️⃣")),
      PageLink(target: "/img/a,1.jpg", attribute: "srcset", offset: marked.offset("3️⃣")),
      PageLink(target: "/img/a@2x.jpg", attribute: "srcset", offset: marked.offset("3️⃣")),
      PageLink(target: "/search/", attribute: "action", offset: marked.offset("4️⃣")),
      PageLink(target: "/other/", attribute: "formaction", offset: marked.offset("5️⃣")),
      PageLink(target: "/img/p.jpg", attribute: "poster", offset: marked.offset("6️⃣")),
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
  #expect(report.links == [PageLink(target: "#i", attribute: "xlink:href", offset: marked.offset("2️⃣"))])
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
        "style element is blocked by Content-Security-Policy \"default-src 'self'\" (its hash "
          + "'sha256-ngewhhP73WDIbgwseeu52VAAJgKdGUsu1IUQQsAm8m4=' is not in the site's style-src); "
          + "use a stylesheet file, or {{{styles.NAME}}} for one of the theme's"),
      .error(
        at: marked["1️⃣"],
        "style attribute is blocked by Content-Security-Policy \"default-src 'self'\"; use a class"),
    ])
}

/// The search page's inline stylesheet passes by its hash in the site's
/// `style-src`; a style element with any other text does not.
@Test func aStyleElementPassesOnlyByAHashInThePolicy() {
  let allowed = "'sha256-ngewhhP73WDIbgwseeu52VAAJgKdGUsu1IUQQsAm8m4='"
  let hashed = HTMLValidator(styleHashes: [allowed])
  let good = page("<p>x</p>", head: "\n<style>p { color: red }</style>")
  #expect(hashed.check(Array(good.utf8), path: "page.html").diagnostics == [])
  // One space more is another stylesheet as far as the browser's hash goes.
  let marked = MarkedPage(page("<p>x</p>", head: "\n1️⃣<style>p { color: red } </style>"))
  let found = hashed.check(marked.bytes, path: "page.html").diagnostics
  #expect(found.count == 1 && found.first?.location == marked["1️⃣"], "\(found)")
  #expect(found.first?.message.contains("is not in the site's style-src") == true, "\(found)")
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
