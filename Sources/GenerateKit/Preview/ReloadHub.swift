import Foundation
import ServiceLifecycle

/// One message on the live-reload channel.
enum ReloadEvent: Hashable, Sendable {
  /// Sent first on every connection. The id changes when the server
  /// restarts, which tells an open page to reload once it reconnects.
  case hello(serverID: String)
  /// Reload the pages at these addresses (`/albums/1-x/index.html`), or
  /// every page when nil but those in `except` (open pages already
  /// reloaded with their new bytes).
  case reload(pages: [String]?, except: [String] = [])
  /// The diagnostics of a failed build, one per line.
  case error(String)
  /// The error shown before is gone.
  case ok
  /// A comment line that keeps proxies quiet and lets the server notice
  /// closed connections.
  case heartbeat

  /// The event as server-sent-events text. Every event carries a non-empty
  /// `data` field because browsers do not dispatch events without one.
  var wireFormat: String {
    switch self {
    case .hello(let id): "event: hello\ndata: \(id)\n\n"
    case .reload(let pages?, _): "event: reload\ndata: \(Self.jsonArray(pages))\n\n"
    case .reload(nil, let except) where except.isEmpty: "event: reload\ndata: *\n\n"
    case .reload(nil, let except): "event: reload\ndata: {\"except\":\(Self.jsonArray(except))}\n\n"
    case .ok: "event: ok\ndata: ok\n\n"
    case .heartbeat: ": heartbeat\n\n"
    case .error(let text):
      "event: error\n"
        + text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        .map { "data: \($0)\n" }.joined() + "\n"
    }
  }

  /// A JSON array of strings on one line (control characters escaped).
  static func jsonArray(_ strings: [String]) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    return (try? encoder.encode(strings)).map { String(decoding: $0, as: UTF8.self) } ?? "*"
  }
}

/// Fans build results out to every open page and remembers the last one,
/// so a page opened while the build is broken shows the error at once.
/// Knows which pages are open: the reload client names its page when it
/// connects, and a build renders those first (`openPages`).
final class ReloadHub: @unchecked Sendable {
  struct Subscription: Sendable {
    var events: AsyncStream<ReloadEvent>
    /// Ends `events`; safe to call more than once.
    var cancel: @Sendable () -> Void
  }

  let serverID: String
  let heartbeatInterval: Duration

  private let lock = NSLock()
  private var subscribers: [Int: AsyncStream<ReloadEvent>.Continuation] = [:]
  /// The page each subscriber said it shows, if it said.
  private var pageOfSubscriber: [Int: String] = [:]
  private var nextSubscriberID = 0
  private var failure: String?
  private var isClosed = false

  init(serverID: String = UUID().uuidString, heartbeatInterval: Duration = .seconds(15)) {
    self.serverID = serverID
    self.heartbeatInterval = heartbeatInterval
  }

  /// The diagnostics of the last build if it failed.
  var currentFailure: String? { lock.withLock { failure } }

  /// The addresses of the open pages (`/albums/1-x/index.html`, as
  /// `RebuildService.pages` makes them), sorted.
  var openPages: [String] { lock.withLock { Set(pageOfSubscriber.values).sorted() } }

  /// - Parameter page: the address of the page that listens, as the reload
  ///   client sends it; nil when it does not say.
  func subscribe(page: String? = nil) -> Subscription {
    // A page that falls behind only needs the latest few events.
    let (events, continuation) = AsyncStream.makeStream(
      of: ReloadEvent.self, bufferingPolicy: .bufferingNewest(8))
    let id: Int? = lock.withLock {
      guard !isClosed else { return nil }
      continuation.yield(.hello(serverID: serverID))
      if let failure { continuation.yield(.error(failure)) }
      nextSubscriberID += 1
      subscribers[nextSubscriberID] = continuation
      if let page { pageOfSubscriber[nextSubscriberID] = page }
      return nextSubscriberID
    }
    guard let id else {
      continuation.finish()
      return Subscription(events: events, cancel: {})
    }
    continuation.onTermination = { [weak self] _ in
      self?.lock.withLock {
        _ = self?.subscribers.removeValue(forKey: id)
        _ = self?.pageOfSubscriber.removeValue(forKey: id)
      }
    }
    return Subscription(events: events, cancel: { continuation.finish() })
  }

  /// More changed pages than this reload every open page instead: the
  /// list would cost more to send than the reloads it saves.
  static let mostPagesNamed = 2_000

  /// Clears a shown error, then reloads the open pages among `pages`
  /// (addresses as `RebuildService.pages` makes them), or every open page
  /// but those in `except` when nil or too many. No reload at all when no
  /// page changed.
  func buildSucceeded(reloading pages: [String]? = nil, except: [String] = []) {
    let hadFailed = lock.withLock {
      defer { failure = nil }
      return failure != nil
    }
    if hadFailed { publish(.ok) }
    guard let pages else { return publish(.reload(pages: nil, except: except)) }
    if pages.isEmpty { return }
    publish(pages.count > Self.mostPagesNamed ? .reload(pages: nil, except: except) : .reload(pages: pages))
  }

  func buildFailed(_ diagnostics: String) {
    lock.withLock { failure = diagnostics }
    publish(.error(diagnostics))
  }

  func publish(_ event: ReloadEvent) {
    let continuations = lock.withLock { Array(subscribers.values) }
    for continuation in continuations { continuation.yield(event) }
  }

  /// Ends every open stream and refuses new ones, so that open pages do not
  /// hold the server up when it shuts down.
  func close() {
    let continuations = lock.withLock {
      isClosed = true
      defer {
        subscribers.removeAll()
        pageOfSubscriber.removeAll()
      }
      return Array(subscribers.values)
    }
    for continuation in continuations { continuation.finish() }
  }
}

/// Runs for the life of the server: sends heartbeats, and closes every
/// stream once a graceful shutdown begins.
extension ReloadHub: Service {
  func run() async throws {
    defer { close() }
    let interval = heartbeatInterval
    do {
      try await cancelWhenGracefulShutdown { [weak self] in
        while true {
          try await Task.sleep(for: interval)
          self?.publish(.heartbeat)
        }
      }
    } catch is CancellationError {
      return
    }
  }
}
