import Foundation
import Testing

@testable import GenerateKit

#if canImport(Glibc)
  import Glibc
  private let closeDescriptor = Glibc.close
  private let sendBytes = Glibc.send
#elseif canImport(Darwin)
  import Darwin
  private let closeDescriptor = Darwin.close
  private let sendBytes = Darwin.send
#endif

// Helpers of the preview tests: a project folder with a server around it,
// and a deliberately dumb HTTP client over a raw socket.

/// A folder in the temporary directory with a site and inputs, removed when
/// the value goes away.
final class PreviewFolder: Sendable {
  static let secret = "TOP-SECRET-\(UUID().uuidString)"
  let root: URL

  init() throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent("preview-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: root) }

  func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

  /// Copies a fixture project (`mini`) into the folder.
  func copyFixture(_ name: String) throws {
    let fixture = fixturesRoot.appendingPathComponent(name)
    for item in try FileManager.default.contentsOfDirectory(atPath: fixture.path) {
      try FileManager.default.copyItem(
        at: fixture.appendingPathComponent(item), to: root.appendingPathComponent(item))
    }
  }

  func write(_ relative: String, _ content: String) throws {
    let url = root.appendingPathComponent(relative)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try content.write(to: url, atomically: true, encoding: .utf8)
  }

  func link(_ relative: String, to destination: String) throws {
    try FileManager.default.createSymbolicLink(atPath: path(relative), withDestinationPath: destination)
  }

  /// A stand-in for the site builder: renders `Data/tracks.csv` into
  /// `site/index.html`, and fails with two diagnostics when the data says
  /// "broken". Like the real builder it leaves the site alone on failure.
  var renderTracks: PreviewServer.Rebuild {
    { [root] in
      let data = try String(contentsOf: root.appendingPathComponent("Data/tracks.csv"), encoding: .utf8)
      if data.contains("broken") {
        throw DiagnosticsError([
          .error(at: SourceLocation(file: "Data/tracks.csv", line: 1, column: 1), "the row is broken"),
          .error(at: SourceLocation(file: "Data/tracks.csv", line: 2, column: 1), "so is this one"),
        ])
      }
      let site = root.appendingPathComponent("site")
      try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
      try "<p>\(data)</p>".write(
        to: site.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
    }
  }

  /// Runs a preview server on a free port of `host` for the length of
  /// `body`; the client connects to the same address (to loopback when the
  /// server listens on every address).
  func withServer(
    basePath: BasePath = .root,
    host: String = "127.0.0.1",
    watching watched: [String] = [],
    watchingInputsOf config: String? = nil,
    buildsAtStart: Bool = true,
    pollInterval: Duration = .milliseconds(50),
    log: @escaping @Sendable (String) -> Void = { _ in },
    warn: @escaping @Sendable (String) -> Void = { _ in },
    rebuild: @escaping PreviewServer.Rebuild = {},
    reportingChanges: PreviewServer.ReportingRebuild? = nil,
    _ body: (HTTPTestClient) async throws -> Void
  ) async throws {
    var configuration = PreviewServer.Configuration(siteFolder: path("site"))
    configuration.basePath = basePath
    configuration.host = host
    configuration.port = 0
    configuration.watchedPaths = watched.map(path)
    if let config = config.map(path) {
      // As `generate preview` does.
      configuration.watchedPaths = PreviewInputs.paths(forConfig: config)
      configuration.updatesWatchedPaths = { PreviewInputs.paths(forConfig: config) }
    }
    configuration.pollInterval = pollInterval
    configuration.debounce = .milliseconds(30)
    configuration.buildsAtStart = buildsAtStart
    configuration.handlesSignals = false
    let server =
      if let reportingChanges {
        PreviewServer(configuration: configuration, log: log, warn: warn, reportingChanges: reportingChanges)
      } else {
        PreviewServer(configuration: configuration, log: log, warn: warn, rebuild: rebuild)
      }

    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    let task = Task {
      defer { continuation.finish() }
      try await server.run(onReady: { port, _ in continuation.yield(port) })
    }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next() else {
      try await task.value
      throw HTTPTestClient.Failure("the server stopped before it was ready")
    }
    do {
      let address = ["0.0.0.0": "127.0.0.1", "::": "::1"][host] ?? host
      try await body(HTTPTestClient(host: address, port: port))
    } catch {
      task.cancel()
      _ = await task.result
      throw error
    }
    task.cancel()
    try await task.value
  }
}

/// A deliberately dumb HTTP/1.1 client over a blocking socket, so that tests
/// can send exactly the bytes they mean (`..`, `%00`, oversized heads) with
/// nothing normalising them on the way. Blocking calls run on a dispatch
/// queue, never on the cooperative pool the server answers from.
struct HTTPTestClient: Sendable {
  struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  struct Response: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? {
      headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
  }

  /// The address connected to, and the name in the `Host` header by default.
  var host = "127.0.0.1"
  let port: Int

  /// `Host` as a browser sends it for this address.
  var hostHeader: String { "\(host.contains(":") ? "[\(host)]" : host):\(port)" }

  func get(_ target: String, headers: [String: String] = [:]) async throws -> Response {
    try await send(method: "GET", target, headers: headers)
  }

  func send(method: String, _ target: String, headers: [String: String] = [:]) async throws -> Response {
    // `Host` as a browser sends it, unless the test names another.
    var head =
      "\(method) \(target) HTTP/1.1\r\nHost: \(headers["Host"] ?? hostHeader)\r\nConnection: close\r\n"
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) where name != "Host" {
      head += "\(name): \(value)\r\n"
    }
    if method == "POST" || method == "PUT" || method == "PATCH" { head += "Content-Length: 0\r\n" }
    head += "\r\n"
    return try await sendRaw(Array(head.utf8))
  }

  /// Sends the bytes, reads until the server closes, parses one response.
  func sendRaw(_ request: [UInt8]) async throws -> Response {
    let (host, port) = (self.host, self.port)
    let bytes = try await offPool {
      let socket = try Socket(host: host, port: port)
      defer { socket.close() }
      socket.send(request)
      return socket.readToEnd()
    }
    return try Self.parse(bytes)
  }

  /// An open page's event stream; `page` is the address the reload client
  /// names (`/albums/1-x/index.html`), percent-encoded as it sends it.
  func openEvents(page: String? = nil) async throws -> EventStream {
    let (host, port) = (self.host, self.port)
    let socket = try await offPool { try Socket(host: host, port: port) }
    let query =
      page.map { "?page=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") } ?? ""
    let request =
      "GET /__preview/events\(query) HTTP/1.1\r\nHost: \(hostHeader)\r\nAccept: text/event-stream\r\n\r\n"
    socket.send(Array(request.utf8))
    return EventStream(socket: socket)
  }

  static func parse(_ bytes: [UInt8]) throws -> Response {
    let separator = Array("\r\n\r\n".utf8)
    guard let end = bytes.firstRange(of: separator) else {
      throw Failure(
        "no complete response head in \(bytes.count) bytes: \(String(decoding: bytes, as: UTF8.self))")
    }
    let lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
    let statusParts = lines[0].split(separator: " ")
    guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
      throw Failure("bad status line \(lines[0])")
    }
    let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
      guard let colon = line.firstIndex(of: ":") else { return nil }
      return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
    var response = Response(status: status, headers: headers, body: Array(bytes[end.upperBound...]))
    if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
      response.body = try dechunk(response.body)
    }
    return response
  }

  private static func dechunk(_ bytes: [UInt8]) throws -> [UInt8] {
    var result: [UInt8] = []
    var index = 0
    while let lineEnd = bytes[index...].firstRange(of: Array("\r\n".utf8)) {
      let sizeText = String(decoding: bytes[index..<lineEnd.lowerBound], as: UTF8.self)
      guard let size = Int(sizeText.split(separator: ";")[0], radix: 16) else {
        throw Failure("bad chunk size")
      }
      if size == 0 { break }
      result += bytes[lineEnd.upperBound..<(lineEnd.upperBound + size)]
      index = lineEnd.upperBound + size + 2
    }
    return result
  }
}

/// An open `/__preview/events` connection, read as it arrives.
final class EventStream: @unchecked Sendable {
  private let socket: Socket
  private var received: [UInt8] = []

  init(socket: Socket) { self.socket = socket }
  deinit { socket.close() }

  /// Everything received so far once it contains `text` (`occurrences` times).
  func waitFor(_ text: String, occurrences: Int = 1, timeout: Duration = .seconds(5)) async throws -> String {
    try await offPool {
      let deadline = ContinuousClock.now + timeout
      while ContinuousClock.now < deadline {
        let sofar = String(decoding: self.received, as: UTF8.self)
        if sofar.components(separatedBy: text).count > occurrences { return sofar }
        guard let chunk = self.socket.receive() else { break }
        self.received += chunk
      }
      throw HTTPTestClient.Failure(
        "no \"\(text)\" in the event stream; got: \(String(decoding: self.received, as: UTF8.self))")
    }
  }
}

/// A blocking TCP socket to a loopback address with a short receive timeout.
final class Socket: @unchecked Sendable {
  private let descriptor: Int32

  /// `host` is resolved, and each of its addresses tried in turn.
  init(host: String = "127.0.0.1", port: Int) throws {
    descriptor = try Self.connect(host: host, port: port)
    var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  }

  private static func connect(host: String, port: Int) throws -> Int32 {
    var hints = addrinfo()
    #if canImport(Darwin)
      hints.ai_socktype = SOCK_STREAM
    #else
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    #endif
    var found: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else {
      throw HTTPTestClient.Failure("cannot resolve \(host)")
    }
    defer { freeaddrinfo(first) }
    var next: UnsafeMutablePointer<addrinfo>? = first
    while let info = next?.pointee {
      next = info.ai_next
      let descriptor = socket(info.ai_family, info.ai_socktype, info.ai_protocol)
      guard descriptor >= 0 else { continue }
      #if canImport(Darwin)
        let connected = Darwin.connect(descriptor, info.ai_addr, info.ai_addrlen)
      #else
        let connected = Glibc.connect(descriptor, info.ai_addr, info.ai_addrlen)
      #endif
      if connected == 0 { return descriptor }
      _ = closeDescriptor(descriptor)
    }
    throw HTTPTestClient.Failure("connect() to \(host) port \(port) failed")
  }

  /// Sends what the server will take; a server that closes early (as it
  /// should for an oversized head) is not an error here.
  func send(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes {
        sendBytes(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard sent > 0 else { return }
      offset += sent
    }
  }

  /// One read; nil at end of stream or on error, empty on timeout.
  func receive() -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    if count > 0 { return Array(buffer[..<count]) }
    if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return [] }
    return nil
  }

  func readToEnd(timeout: Duration = .seconds(5)) -> [UInt8] {
    var bytes: [UInt8] = []
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline, let chunk = receive() {
      bytes += chunk
    }
    return bytes
  }

  func close() { _ = closeDescriptor(descriptor) }
}

/// Whether this machine has `::1` to listen on (containers often lack IPv6).
func canListenOnIPv6Loopback() -> Bool {
  #if canImport(Darwin)
    let descriptor = socket(AF_INET6, SOCK_STREAM, 0)
  #else
    let descriptor = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
  #endif
  guard descriptor >= 0 else { return false }
  defer { _ = closeDescriptor(descriptor) }
  var address = sockaddr_in6()
  address.sin6_family = sa_family_t(AF_INET6)
  address.sin6_addr = in6addr_loopback
  let bound = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
    }
  }
  return bound == 0
}

final class BuildCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var running = 0
  private var total = 0
  private var peak = 0

  func started() {
    lock.withLock {
      running += 1
      total += 1
      peak = max(peak, running)
    }
  }

  func finished() { lock.withLock { running -= 1 } }
  var count: Int { lock.withLock { total } }
  var isRunning: Bool { lock.withLock { running > 0 } }
  var mostAtOnce: Int { lock.withLock { peak } }
}

final class Lines: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []
  var append: @Sendable (String) -> Void { { [self] line in lock.withLock { lines.append(line) } } }
  var all: [String] { lock.withLock { lines } }
}

/// Waits for a condition that becomes true asynchronously (a rebuild).
func eventually(
  timeout: Duration = .seconds(5), _ condition: () async throws -> Bool
) async throws {
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if try await condition() { return }
    try await Task.sleep(for: .milliseconds(20))
  }
  throw HTTPTestClient.Failure("condition not met within \(timeout)")
}

/// Runs blocking work on a thread of its own: neither the cooperative pool
/// (the server's handlers run there) nor Dispatch's global queues, which on
/// Linux add threads only slowly when the ones they have are blocked.
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try work() }) }.start()
  }
}

/// Decompresses with the system's gzip, an independent implementation.
func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
  let input = FileManager.default.temporaryDirectory.appendingPathComponent("gz-\(UUID().uuidString).gz")
  try Data(bytes).write(to: input)
  defer { try? FileManager.default.removeItem(at: input) }
  let result = try runProcess("/usr/bin/env", ["gzip", "-dc", input.path])
  guard result.status == 0 else { throw HTTPTestClient.Failure("gzip -dc failed: \(result.output)") }
  return result.stdout
}
