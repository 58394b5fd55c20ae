import Foundation
import GenerateKit
import Testing

// Shared by the validator's tests: pages with location markers.

// MARK: - Location markers

/// Inline markup with location markers (`1️⃣`, `2️⃣`…) that say where a
/// diagnostic must point. The markers are removed from `bytes`; each one's
/// place is kept as a 1-based line and a column counted in Unicode scalars,
/// as libxml2 and the validator count them.
struct MarkedPage {
  var bytes: [UInt8]
  var markers: [Character: GenerateKit.SourceLocation]
  /// Each marker's byte offset in `bytes`.
  var offsets: [Character: Int]

  init(_ text: String, file: String = "page.html") {
    bytes = []
    markers = [:]
    offsets = [:]
    var line = 1
    var column = 1
    for character in text {
      if MarkedPage.markerCharacters.contains(character) {
        if markers[character] != nil { Issue.record("marker \(character) used twice") }
        markers[character] = GenerateKit.SourceLocation(file: file, line: line, column: column)
        offsets[character] = bytes.count
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

  /// The byte offset of a marker in `bytes` (0 and a recorded issue when
  /// the marker is missing).
  func offset(_ marker: Character) -> Int {
    guard let offset = offsets[marker] else {
      Issue.record("no marker \(marker) in the text")
      return 0
    }
    return offset
  }

  /// The location of a marker; fails the test (and points at line 1) when
  /// the marker is missing, so a typo cannot pass silently.
  subscript(_ marker: Character) -> GenerateKit.SourceLocation {
    guard let location = markers[marker] else {
      Issue.record("no marker \(marker) in the text")
      return GenerateKit.SourceLocation(file: "missing-marker")
    }
    return location
  }
}

/// A complete, valid page around `body`; `head` is added at the end of the
/// head element.
func page(_ body: String, head: String = "", htmlAttributes: String = " lang=\"en\"") -> String {
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

let validator = HTMLValidator()

/// Checks marked text as `page.html` and returns the diagnostics.
func diagnostics(_ marked: MarkedPage) -> [Diagnostic] {
  validator.check(marked.bytes, path: "page.html").diagnostics
}

// MARK: - A valid page

/// A realistic generated page: site chrome, a search form with a datalist,
/// ARIA wiring, a table with headers, an SVG sprite, a template, JSON-LD.
let realisticPage = """
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
