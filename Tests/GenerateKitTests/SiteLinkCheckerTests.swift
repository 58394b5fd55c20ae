import Foundation
import GenerateKit
import Testing

/// Swift Testing has its own `SourceLocation`; these tests mean the site's.
private typealias SourceLocation = GenerateKit.SourceLocation

// MARK: - Site-wide links

/// Checks marked pages (path → text) as one site and returns the markers of
/// every page plus the diagnostics.
private func checkSite(
  _ pages: [String: String], otherFiles: Set<String> = [], basePath: BasePath = .root
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
  return (markers, checker.check(pages: reports) { markers[$0]?.bytes })
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

@Test func siteUnderABasePath() throws {
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
    ], otherFiles: ["img/a.jpg"], basePath: try BasePath("/music/"))
  let index = site.markers["index.html"]
  #expect(
    site.diagnostics == [
      .error(at: index?["1️⃣"], "link \"/music/albums/9/\" does not resolve to a file in the site"),
      .error(at: index?["2️⃣"], "link \"/albums/1/\" is outside the site's base path \"/music/\""),
      .error(at: index?["3️⃣"], "link \"/musical/\" is outside the site's base path \"/music/\""),
    ])
}

@Test func basePathComesFromTheOneBasePathReader() throws {
  // A full URL or a bare name reads as its path, as everywhere else.
  for text in ["music", "https://example.org/music/", "/music"] {
    let site = checkSite(
      ["index.html": page("<a href=\"/music/\">Home</a> <a 1️⃣href=\"/albums/\">Out</a>")],
      basePath: try BasePath(text))
    #expect(
      site.diagnostics == [
        .error(
          at: site.markers["index.html"]?["1️⃣"],
          "link \"/albums/\" is outside the site's base path \"/music/\"")
      ], "\(text)")
  }
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
