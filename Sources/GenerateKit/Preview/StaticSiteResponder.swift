import Foundation
import Hummingbird
import NIOCore
import ServiceLifecycle

/// Answers every request of the preview server: the site's files the way a
/// careful static host serves them, plus the live-reload endpoints under
/// `/__preview/`.
///
/// Path handling is deliberately strict (see `RequestTarget` and
/// `SiteFolder`): a preview server runs on a developer's machine next to
/// their files, and a page open in the browser can be made to request
/// anything.
///
/// Not Hummingbird's `FileMiddleware`: of what this does it would give the
/// folder redirect and `If-None-Match`, while the rest would still wrap
/// every response it made — the site's `404.html`, containment of symlinks
/// in the site folder, gzip by `Accept-Encoding`, the reload endpoints,
/// waiting for a build in progress (`BuildGate`), and entity tags from the
/// content (its tags come from the modification date, so every rebuild
/// would make the browser fetch every file again).
struct StaticSiteResponder: HTTPResponder {
  typealias Context = BasicRequestContext

  var site: SiteFolder
  /// The base path's segments: `["music"]` for a site served under `/music/`.
  var basePath: [String]
  var hub: ReloadHub
  /// Which `Host` headers are answered; others get 403.
  var hostCheck: HostCheck = .loopbackNames
  /// Misses during a build wait for it (see `BuildGate`).
  var gate = BuildGate()
  /// The new site while a build writes it to the folder.
  var overlay = SiteOverlay()
  /// The last build's Content-Security-Policy.
  var policy = ContentPolicy()
  var cache = SiteFileCache()
  var maximumTargetLength = 4096
  /// Files below this size go out uncompressed: the gzip header and the
  /// work cost more than they save.
  var minimumCompressedSize = 1024
  /// Nor are very large ones: compressing happens on a request thread, and
  /// in a debug build a few megabytes take long enough to stall the page.
  var maximumCompressedSize = 4 << 20

  static let eventsPath = ["__preview", "events"]
  static let scriptPath = ["__preview", "reload.js"]

  func respond(to request: Request, context: Context) async throws -> Response {
    var response = try await answer(request)
    // The site's own policy, with its pictures' origins; the rest of the
    // headers are the same for every build.
    response.headers[.contentSecurityPolicy] = policy.current
    return response
  }

  private func answer(_ request: Request) async throws -> Response {
    guard let host = HostCheck.soleHost(of: request.head) else {
      return text(.badRequest, "Bad Request: a request needs exactly one Host header", for: request)
    }
    guard hostCheck.allows(host) else {
      return text(
        .forbidden,
        "Forbidden: on a loopback address the preview answers only to localhost, 127.x.x.x and [::1]",
        for: request)
    }
    guard request.method == .get || request.method == .head else {
      var headers = Self.commonHeaders()
      headers[.allow] = "GET, HEAD"
      return text(.methodNotAllowed, "Method Not Allowed", headers: headers, for: request)
    }
    let target: RequestTarget
    do {
      target = try RequestTarget(parsing: request.head.path ?? "", maximumLength: maximumTargetLength)
    } catch .tooLong {
      return text(.uriTooLong, "URI Too Long", for: request)
    } catch {
      return text(.badRequest, "Bad Request", for: request)
    }

    // The reload endpoints live outside the base path: the client script
    // asks for them by absolute path whatever the site's base is.
    if target.segments == Self.eventsPath {
      return events(for: request, page: Self.page(inQuery: target.query))
    }
    if target.segments == Self.scriptPath {
      return bytes(
        .ok, ByteBuffer(string: PreviewServer.reloadScript),
        type: MediaType.forFile(named: "reload.js").description,
        for: request)
    }

    guard target.segments.starts(with: basePath) else {
      if target.segments.isEmpty {
        return redirect(to: basePath, trailingSlash: true, query: target.query, .found)
      }
      return text(.notFound, "Not Found", for: request)
    }
    let path = target.segments.dropFirst(basePath.count)
    if path.isEmpty, !target.hasTrailingSlash {
      return redirect(to: basePath, trailingSlash: true, query: target.query, .found)
    }
    // Dot files (`.git`, `.DS_Store`) are never part of a site, except the
    // one folder the web reserves for them.
    if path.contains(where: { $0.hasPrefix(".") && $0 != ".well-known" }) {
      return notFound(for: request)
    }

    if let site = overlay.current { return memoryFile(path, target: target, in: site, for: request) }
    let mark = gate.mark()
    let response = siteFile(path, target: target, for: request)
    guard response.status == .notFound || response.status == .serviceUnavailable,
      gate.mayHaveMoved(since: mark)
    else { return response }
    await gate.waitUntilIdle()
    return siteFile(path, target: target, for: request)
  }

  /// The file, folder redirect or miss for a path inside the base path.
  private func siteFile(_ path: ArraySlice<String>, target: RequestTarget, for request: Request) -> Response {
    switch site.resolve(path) {
    case .noSite:
      return noSitePage(for: request)
    case .notFound:
      return notFound(for: request)
    case .directory:
      guard target.hasTrailingSlash else {
        // `/a` → `/a/`, so that relative links inside `a/index.html` resolve
        // against the folder, but only when there is an index to land on.
        guard case .file = site.resolve(path + ["index.html"]) else { return notFound(for: request) }
        return redirect(
          to: Array(target.segments), trailingSlash: true, query: target.query, .movedPermanently)
      }
      guard case .file(let index, let status) = site.resolve(path + ["index.html"]) else {
        return notFound(for: request)
      }
      return file(at: index, status: status, for: request)
    case .file(let real, let status):
      // `/page.html/` names a folder that is not there.
      guard !target.hasTrailingSlash else { return notFound(for: request) }
      return file(at: real, status: status, for: request)
    }
  }

  /// As `siteFile`, from the site in memory. Sent as it is, never
  /// gzipped: this lasts only while the folder is written.
  private func memoryFile(
    _ path: ArraySlice<String>, target: RequestTarget, in site: SiteOverlay.Site, for request: Request
  ) -> Response {
    switch site.resolve(path, trailingSlash: target.hasTrailingSlash) {
    case .folder:
      return redirect(to: Array(target.segments), trailingSlash: true, query: target.query, .movedPermanently)
    case .notFound:
      guard let page = site.files["404.html"] else { return text(.notFound, "Not Found", for: request) }
      return bytes(
        .notFound, ByteBuffer(bytes: page), type: MediaType.forFile(named: "404.html").description,
        for: request)
    case .file(let name):
      let body = site.files[name] ?? []
      return file(
        named: name, body: ByteBuffer(bytes: body), etag: SiteFileCache.tag(for: body),
        modifiedSeconds: site.modifiedSeconds, gzipped: { nil }, for: request)
    }
  }

  // MARK: Files

  private func file(at path: String, status: FileStatus, for request: Request) -> Response {
    guard let entry = cache.entry(path: path, status: status) else { return notFound(for: request) }
    return file(
      named: path, body: entry.body, etag: entry.etag, modifiedSeconds: entry.status.modifiedSeconds,
      gzipped: { cache.gzipped(path: path, entry: entry) }, for: request)
  }

  private func file(
    named path: String, body: ByteBuffer, etag identityTag: String, modifiedSeconds: Int64,
    gzipped compressed: () -> ByteBuffer?, for request: Request
  ) -> Response {
    let media = MediaType.forFile(named: path)
    let gzipped =
      media.isCompressible
        && (minimumCompressedSize...maximumCompressedSize).contains(body.readableBytes)
        && ContentNegotiation.acceptsGzip(request.headers[values: .acceptEncoding].joined(separator: ","))
      ? compressed() : nil
    let compress = gzipped != nil
    // Each representation needs its own strong tag, or a cache could pair
    // a gzip body with a 304 meant for the identity one.
    let etag = compress ? String(identityTag.dropLast()) + "-gz\"" : identityTag
    let lastModified = HTTPDate.format(secondsSince1970: modifiedSeconds)

    var headers = Self.commonHeaders()
    headers[.eTag] = etag
    headers[.lastModified] = lastModified
    if media.isCompressible { headers[.vary] = "Accept-Encoding" }

    if isNotModified(request, etag: etag, modifiedSeconds: modifiedSeconds) {
      return Response(status: .notModified, headers: headers, body: ResponseBody())
    }
    headers[.contentType] = media.description
    var body = body
    if let gzipped {
      body = gzipped
      headers[.contentEncoding] = "gzip"
    }
    return bytes(.ok, body, headers: headers, for: request)
  }

  /// `If-None-Match` wins over `If-Modified-Since` when both are sent
  /// (RFC 9110 §13.2.2).
  private func isNotModified(_ request: Request, etag: String, modifiedSeconds: Int64) -> Bool {
    let noneMatch = request.headers[values: .ifNoneMatch]
    if !noneMatch.isEmpty {
      return ContentNegotiation.noneMatch(noneMatch.joined(separator: ","), matches: etag)
    }
    guard let since = request.headers[.ifModifiedSince].flatMap(HTTPDate.parse) else { return false }
    return modifiedSeconds <= since
  }

  private func notFound(for request: Request) -> Response {
    if case .file(let path, let status) = site.resolve(["404.html"]),
      let entry = cache.entry(path: path, status: status)
    {
      return bytes(.notFound, entry.body, type: MediaType.forFile(named: path).description, for: request)
    }
    return text(.notFound, "Not Found", for: request)
  }

  /// Before the first good build there is no folder to serve: say why, and
  /// load the reload script so the page turns into the site by itself.
  private func noSitePage(for request: Request) -> Response {
    let message =
      hub.currentFailure.map {
        "<p>The first build failed. Fix the error below and this page reloads by itself.</p>\n<pre>"
          + Escaping.html($0) + "</pre>"
      } ?? "<p>The site has not been built yet. This page reloads by itself when it has.</p>"
    let page = """
      <!doctype html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <title>generate preview</title>
      <script type="module" src="/\(Self.scriptPath.joined(separator: "/"))"></script>
      </head>
      <body>
      <h1>No site yet</h1>
      \(message)
      </body>
      </html>

      """
    return bytes(
      .serviceUnavailable, ByteBuffer(string: page), type: MediaType.forFile(named: "x.html").description,
      for: request)
  }

  // MARK: Live reload

  /// The open page's address the reload client sends with its events
  /// request (`?page=%2Falbums%2F1-x%2Findex.html`), decoded; nil for
  /// none, or one that is not a path.
  static func page(inQuery query: String?) -> String? {
    guard let query else { return nil }
    for pair in query.split(separator: "&") where pair.hasPrefix("page=") {
      let value = pair.dropFirst("page=".count).replacingOccurrences(of: "+", with: " ")
      guard let page = value.removingPercentEncoding, page.hasPrefix("/"), page.utf8.count <= 2048 else {
        return nil
      }
      return page
    }
    return nil
  }

  private func events(for request: Request, page: String?) -> Response {
    var headers = Self.commonHeaders()
    headers[.contentType] = "text/event-stream; charset=utf-8"
    guard request.method == .get else { return Response(status: .ok, headers: headers, body: ResponseBody()) }
    let hub = self.hub
    return Response(
      status: .ok, headers: headers,
      body: ResponseBody { writer in
        let subscription = hub.subscribe(page: page)
        defer { subscription.cancel() }
        // Reconnect fast after a restart; the default is several seconds.
        try await writer.write(ByteBuffer(string: "retry: 500\n\n"))
        // A stream never ends by itself, and a graceful shutdown waits for
        // open responses: end ours when one starts.
        try await withGracefulShutdownHandler {
          for await event in subscription.events {
            try await writer.write(ByteBuffer(string: event.wireFormat))
          }
        } onGracefulShutdown: {
          subscription.cancel()
        }
        try await writer.finish(nil)
      })
  }

  // MARK: Building responses

  static func commonHeaders() -> HTTPFields {
    [
      .contentSecurityPolicy: "default-src 'self'",
      .xContentTypeOptions: "nosniff",
      // A preview changes under the browser's feet: always revalidate.
      .cacheControl: "no-cache",
    ]
  }

  private func text(
    _ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = commonHeaders(),
    for request: Request
  ) -> Response {
    var headers = headers
    headers[.contentType] = MediaType.forFile(named: "x.txt").description
    return bytes(status, ByteBuffer(string: message + "\n"), headers: headers, for: request)
  }

  private func bytes(
    _ status: HTTPResponse.Status, _ body: ByteBuffer, type: String, for request: Request
  ) -> Response {
    var headers = Self.commonHeaders()
    headers[.contentType] = type
    return bytes(status, body, headers: headers, for: request)
  }

  /// A HEAD response carries the GET response's headers, length included,
  /// and no body.
  private func bytes(
    _ status: HTTPResponse.Status, _ body: ByteBuffer, headers: HTTPFields, for request: Request
  ) -> Response {
    var headers = headers
    headers[.contentLength] = String(body.readableBytes)
    let body = request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: body)
    return Response(status: status, headers: headers, body: body)
  }

  private func redirect(
    to segments: [String], trailingSlash: Bool, query: String?, _ status: HTTPResponse.Status
  ) -> Response {
    var headers = Self.commonHeaders()
    var location = RequestTarget.encodedPath(segments, trailingSlash: trailingSlash)
    if let query { location += "?" + query }
    headers[.location] = location
    headers[.contentLength] = "0"
    return Response(status: status, headers: headers, body: ResponseBody())
  }
}
