import Foundation
import Testing

@testable import GenerateKit

/// The preview server over a real loopback socket, serving files: what a
/// browser gets back.
@Suite struct PreviewServingTests {

  @Test func sendsTheContentTypeAStaticHostWould() async throws {
    let project = try PreviewFolder()
    let files: [(name: String, type: String)] = [
      ("index.html", "text/html; charset=utf-8"),
      ("style.css", "text/css; charset=utf-8"),
      ("app.js", "text/javascript; charset=utf-8"),
      ("search.mjs", "text/javascript; charset=utf-8"),
      // The offline worker: a browser registers only a script type.
      ("sw.js", "text/javascript; charset=utf-8"),
      ("index.json", "application/json"),
      ("icon.svg", "image/svg+xml"),
      ("cover.png", "image/png"),
      ("sitemap.xml", "application/xml"),
      ("robots.txt", "text/plain; charset=utf-8"),
      ("font.woff2", "font/woff2"),
      ("favicon.ico", "image/vnd.microsoft.icon"),
      ("site.webmanifest", "application/manifest+json"),
      ("LICENSE", "application/octet-stream"),
    ]
    for file in files { try project.write("site/\(file.name)", "content of \(file.name)") }

    try await project.withServer { client in
      for file in files {
        let response = try await client.get("/\(file.name)")
        #expect(response.status == 200, "\(file.name)")
        #expect(response.header("Content-Type") == file.type, "\(file.name)")
        #expect(response.text == "content of \(file.name)", "\(file.name)")
        #expect(response.header("Content-Security-Policy") == "default-src 'self'")
        #expect(response.header("X-Content-Type-Options") == "nosniff")
        #expect(response.header("Cache-Control") == "no-cache")
      }
    }
  }

  @Test func servesFolderIndexesAndRedirectsToTheSlash() async throws {
    let project = try PreviewFolder()
    try project.write("site/index.html", "home")
    try project.write("site/artists/index.html", "artists")
    try project.write("site/empty/readme.txt", "no index here")

    try await project.withServer { client in
      #expect(try await client.get("/").text == "home")
      #expect(try await client.get("/artists/").text == "artists")

      let redirect = try await client.get("/artists?q=jazz")
      #expect(redirect.status == 301)
      #expect(redirect.header("Location") == "/artists/?q=jazz")

      // No index, no listing.
      #expect(try await client.get("/empty/").status == 404)
      #expect(try await client.get("/empty").status == 404)
      // A file asked for as a folder.
      #expect(try await client.get("/artists/index.html/").status == 404)
    }
  }

  @Test func answersMissingFilesWithTheSites404Page() async throws {
    let project = try PreviewFolder()
    try project.write("site/index.html", "home")
    try project.write("site/404.html", "<h1>Nothing here</h1>")

    try await project.withServer { client in
      let response = try await client.get("/no/such/page")
      #expect(response.status == 404)
      #expect(response.text == "<h1>Nothing here</h1>")
      #expect(response.header("Content-Type") == "text/html; charset=utf-8")
    }
  }

  @Test func answersHeadWithHeadersOnly() async throws {
    let project = try PreviewFolder()
    try project.write("site/index.html", "twelve bytes")

    try await project.withServer { client in
      let response = try await client.send(method: "HEAD", "/index.html")
      #expect(response.status == 200)
      #expect(response.header("Content-Length") == "12")
      #expect(response.header("Content-Type") == "text/html; charset=utf-8")
      #expect(response.body.isEmpty)
    }
  }

  @Test func revalidatesWithEntityTagsAndDates() async throws {
    let project = try PreviewFolder()
    try project.write("site/app.js", "console.log(1)")

    try await project.withServer { client in
      let first = try await client.get("/app.js")
      let etag = try #require(first.header("ETag"))
      let lastModified = try #require(first.header("Last-Modified"))
      #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""), "a strong tag")

      let revalidated = try await client.get("/app.js", headers: ["If-None-Match": etag])
      #expect(revalidated.status == 304)
      #expect(revalidated.body.isEmpty)
      #expect(revalidated.header("ETag") == etag)

      let byDate = try await client.get("/app.js", headers: ["If-Modified-Since": lastModified])
      #expect(byDate.status == 304)

      let otherTag = try await client.get("/app.js", headers: ["If-None-Match": "\"something-else\""])
      #expect(otherTag.status == 200)

      try project.write("site/app.js", "console.log(2) // changed")
      let changed = try await client.get("/app.js", headers: ["If-None-Match": etag])
      #expect(changed.status == 200)
      #expect(changed.text == "console.log(2) // changed")
      #expect(changed.header("ETag") != etag)
    }
  }

  @Test func compressesTextOnlyWhenTheClientAcceptsGzip() async throws {
    let project = try PreviewFolder()
    let script = (1...200).map { "export const value\($0) = \"track \($0)\";\n" }.joined()
    try project.write("site/search.js", script)
    try project.write("site/small.css", "body { margin: 0 }")
    try project.write("site/cover.png", String(repeating: "x", count: 4096))

    try await project.withServer { client in
      let gzipped = try await client.get("/search.js", headers: ["Accept-Encoding": "gzip, deflate, br"])
      #expect(gzipped.status == 200)
      #expect(gzipped.header("Content-Encoding") == "gzip")
      #expect(gzipped.header("Vary") == "Accept-Encoding")
      #expect(gzipped.body.count < script.utf8.count / 3)
      #expect(try gunzip(gzipped.body) == Array(script.utf8))

      let plain = try await client.get("/search.js")
      #expect(plain.header("Content-Encoding") == nil)
      #expect(plain.header("Vary") == "Accept-Encoding")
      #expect(plain.text == script)
      #expect(plain.header("ETag") != gzipped.header("ETag"), "each representation has its own tag")

      let refused = try await client.get("/search.js", headers: ["Accept-Encoding": "gzip;q=0, *"])
      #expect(refused.header("Content-Encoding") == nil)
      let brotliOnly = try await client.get("/search.js", headers: ["Accept-Encoding": "br"])
      #expect(brotliOnly.header("Content-Encoding") == nil)

      let small = try await client.get("/small.css", headers: ["Accept-Encoding": "gzip"])
      #expect(small.header("Content-Encoding") == nil, "under 1 KB stays as it is")
      let image = try await client.get("/cover.png", headers: ["Accept-Encoding": "gzip"])
      #expect(image.header("Content-Encoding") == nil, "images are compressed already")
      #expect(image.header("Vary") == nil)
    }
  }

  @Test func servesTheSiteUnderItsBasePathOnly() async throws {
    let project = try PreviewFolder()
    try project.write("site/index.html", "music home")
    try project.write("site/style.css", "css")
    try project.write("site/404.html", "music 404")
    try project.write("site/sw.js", "worker")

    try await project.withServer(basePath: BasePath("/music/")) { client in
      #expect(try await client.get("/music/").text == "music home")
      // The worker under the base, so its scope is the site's pages.
      let worker = try await client.get("/music/sw.js")
      #expect(worker.text == "worker" && worker.header("Content-Type") == "text/javascript; charset=utf-8")
      #expect(try await client.get("/music/style.css").text == "css")
      #expect(try await client.get("/music/missing").text == "music 404")

      let root = try await client.get("/")
      #expect(root.status == 302)
      #expect(root.header("Location") == "/music/")
      let bare = try await client.get("/music")
      #expect(bare.status == 302)
      #expect(bare.header("Location") == "/music/")

      #expect(try await client.get("/style.css").status == 404)
      #expect(try await client.get("/index.html").status == 404)
      #expect(try await client.get("/musical/").status == 404)
      #expect(
        try await client.get("/__preview/reload.js").status == 200, "reload endpoints sit outside the base")
    }
  }
}
