import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `generate preview`: serves a built site on the local machine, rebuilds it
/// when its inputs change and reloads the open pages.
///
/// The build itself is injected as a closure so that the server knows
/// nothing about the pipeline (and tests can use a closure that writes a
/// file). The closure must leave the folder untouched when it fails — the
/// builder publishes atomically — because the server keeps serving the
/// folder as it is: a broken edit shows as an overlay over the last good site.
///
/// ```swift
/// var options = BuildOptions()
/// options.outputPath = ".build/preview-site"
/// options.previewScript = PreviewServer.reloadScript
/// let builder = SiteBuilder(options: options)
/// var configuration = PreviewServer.Configuration(siteFolder: options.outputPath)
/// configuration.watchedPaths = PreviewInputs.paths(forConfig: options.configPath)
/// try await PreviewServer(configuration: configuration) { _ = try builder.build() }.run()
/// ```
public struct PreviewServer: Sendable {
  /// Builds the site into the served folder; throws `DiagnosticsError` (or
  /// any error) when the inputs are broken.
  public typealias Rebuild = @Sendable () throws -> Void
  /// Builds like `Rebuild` and returns the site-relative paths of the files
  /// that changed (`SiteBuilder.build(keeping:reportingTo:)`), so that only open pages
  /// whose own file changed reload; nil when that is not known. It may hand
  /// the checked files over before writing them (`BuildProgress`).
  public typealias ReportingRebuild = @Sendable (BuildProgress) throws -> [String]?

  /// The one observer of a preview build (`PreviewBuild`): lets it show
  /// its new site before the folder holds it, and the pages open in a
  /// browser before the rest of the site is rendered, and asks it to stop.
  public struct BuildProgress: Sendable {
    typealias Ready = @Sendable (_ files: [String: [UInt8]], _ changed: [String]?) -> Void
    let ready: Ready
    var openReady: Ready = { _, _ in }
    var superseded: @Sendable () -> Bool = { false }
    var policy: @Sendable (String) -> Void = { _ in }
    /// The site-relative paths of the pages open in a browser when the
    /// build started (`albums/1-x/index.html`): render these first.
    public internal(set) var openPages: Set<String> = []

    init(ready: @escaping Ready) { self.ready = ready }

    /// The new site is built and checked: until the build returns, the
    /// server answers from `files` (every file, by site-relative path), and
    /// it reloads the open pages among `changed` (nil: every page) at once.
    /// The build must then write exactly these files to the folder.
    public func filesReady(_ files: [String: [UInt8]], changed: [String]?) { ready(files, changed) }

    /// The open pages are rendered and checked before the rest of the site:
    /// until `filesReady`, the server answers from `files` (the last site
    /// with these pages and what they need replaced) and reloads the open
    /// pages among `changed` at once. A page named here and unchanged
    /// afterwards must not be named again by `filesReady`.
    public func openPagesReady(_ files: [String: [UInt8]], changed: [String]) { openReady(files, changed) }

    /// Whether an input changed since the build started: a build that has
    /// shown the open pages may then stop (`PreviewBuild.Superseded`) and
    /// leave the rest to the next build.
    public var isSuperseded: Bool { superseded() }

    /// The built site's Content-Security-Policy, which the server sends
    /// from now on (`BuildSummary.contentSecurityPolicy`).
    public func contentSecurityPolicy(_ policy: String) { self.policy(policy) }
  }

  public struct Configuration: Sendable {
    /// The folder the builder publishes to and the server serves.
    public var siteFolder: String
    /// The path the site lives under, as in `--base-url` (`/music/`).
    public var basePath: BasePath = .root
    public var host: String = "127.0.0.1"
    /// 0 picks a free port; `onReady` is told which.
    public var port: Int = 8000
    /// Files and folders whose changes trigger a rebuild.
    public var watchedPaths: [String] = []
    /// When set, asked for the watch list again after every build (see
    /// `PreviewInputs`); `watchedPaths` is the list to start with.
    public var updatesWatchedPaths: (@Sendable () -> [String])?
    public var pollInterval: Duration = .milliseconds(300)
    public var debounce: Duration = .milliseconds(150)
    public var heartbeatInterval: Duration = .seconds(15)
    /// Whether `run()` builds once before it starts serving.
    public var buildsAtStart: Bool = true
    /// Whether SIGINT and SIGTERM stop the server gracefully (tests turn
    /// this off and cancel the task instead).
    public var handlesSignals: Bool = true

    public init(siteFolder: String) {
      self.siteFolder = siteFolder
    }
  }

  public var configuration: Configuration
  public var rebuild: ReportingRebuild
  /// Progress lines (stdout by default).
  public var log: @Sendable (String) -> Void
  /// Warnings and build diagnostics (stderr by default).
  public var warn: @Sendable (String) -> Void

  public init(
    configuration: Configuration,
    log: @escaping @Sendable (String) -> Void = PreviewServer.printToStandardOutput,
    warn: @escaping @Sendable (String) -> Void = PreviewServer.printToStandardError,
    rebuild: @escaping Rebuild
  ) {
    self.init(
      configuration: configuration, log: log, warn: warn,
      reportingChanges: { _ in
        try rebuild()
        return nil
      })
  }

  /// A server whose builds say which files changed: an open page reloads
  /// only when its own file did.
  public init(
    configuration: Configuration,
    log: @escaping @Sendable (String) -> Void = PreviewServer.printToStandardOutput,
    warn: @escaping @Sendable (String) -> Void = PreviewServer.printToStandardError,
    reportingChanges rebuild: @escaping ReportingRebuild
  ) {
    self.configuration = configuration
    self.log = log
    self.warn = warn
    self.rebuild = rebuild
  }

  /// Builds once, then serves and rebuilds until SIGINT/SIGTERM (or until
  /// the task is cancelled). A failed first build does not stop it: the
  /// error is printed and shown in the browser, and watching goes on.
  ///
  /// - Parameter onReady: called once the socket is listening, with the
  ///   port actually bound and the site's URL. By default it prints
  ///   `Serving http://127.0.0.1:8000/ (Ctrl-C to stop)`.
  /// - Throws: `PreviewError` when the address cannot be bound.
  public func run(
    onReady: @escaping @Sendable (_ port: Int, _ url: String) async -> Void = { _, url in
      PreviewServer.printToStandardOutput("Serving \(url) (Ctrl-C to stop)")
    }
  ) async throws {
    let configuration = self.configuration
    // Chosen from the address itself: only one other machines can reach
    // widens the check to every `Host` name.
    let hostCheck = HostCheck(listeningOn: configuration.host)
    if hostCheck == .anyName {
      warn(
        "warning: preview is for local use; on \(configuration.host) anyone who can reach this machine "
          + "can read the site folder and the build errors. Use a static host to publish.")
    }
    let hub = ReloadHub(heartbeatInterval: configuration.heartbeatInterval)
    let watcher = FileWatcher(paths: configuration.watchedPaths, excluding: [configuration.siteFolder])
    // Taken before the first build, so that an edit made while it runs is
    // picked up afterwards.
    let overlay = SiteOverlay()
    let rebuilds = RebuildService(
      watcher: watcher, rebuild: rebuild, hub: hub, overlay: overlay,
      pollInterval: configuration.pollInterval,
      debounce: configuration.debounce, log: log, warn: warn, snapshot: watcher.snapshot(),
      watchedPaths: configuration.updatesWatchedPaths, basePath: configuration.basePath)
    let gate = rebuilds.gate
    if configuration.buildsAtStart { await rebuilds.build() }

    let basePath = configuration.basePath.segments
    let responder = StaticSiteResponder(
      site: SiteFolder(path: configuration.siteFolder), basePath: basePath, hub: hub,
      hostCheck: hostCheck, gate: gate, overlay: overlay, policy: rebuilds.policy)
    var logger = Logger(label: "generate.preview")
    // Quiet unless asked (`LOG_LEVEL=debug`, as in Hummingbird): what the
    // user needs to know is printed through `log` and `warn`, and bind
    // failures come back as `PreviewError`.
    logger.logLevel =
      ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) } ?? .critical
    let host = configuration.host
    let app = Application(
      responder: responder,
      // Hummingbird's HTTP/1 channel with the absolute-form check in front
      // (`AbsoluteFormCheck`).
      server: HTTPServerBuilder { responder in
        PreviewHTTP1Channel(
          inner: HTTP1Channel(
            responder: responder,
            configuration: .init(
              // Long targets are answered with 414 by the responder; past
              // these limits the parser itself refuses the request with a 400.
              httpDecoderConfiguration: .init(
                maxHeaderFieldSize: 16 * 1024, maxHeaderListSize: 64 * 1024, maxHeaderFieldCount: 100))))
      },
      configuration: ApplicationConfiguration(address: .hostname(host, port: configuration.port)),
      services: [hub, rebuilds],
      onServerRunning: { channel in
        let port = channel.localAddress?.port ?? configuration.port
        let url =
          "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
          + RequestTarget.encodedPath(basePath, trailingSlash: true)
        await onReady(port, url)
      },
      logger: logger
    )
    do {
      if configuration.handlesSignals {
        try await app.runService()
      } else {
        try await app.run()
      }
    } catch {
      throw PreviewError(bindingFailure: error, host: host, port: configuration.port) ?? error
    }
  }

  /// Whether listening on `host` keeps the server on this machine: a
  /// loopback name or address (see `Loopback`; IPv6 with or without
  /// brackets), or a name that resolves to one — Debian gives the machine's
  /// own name 127.0.1.1 — resolved the way the bind resolves it.
  public static func isLoopback(_ host: String) -> Bool {
    var literal = Substring(host)
    if literal.hasPrefix("["), literal.hasSuffix("]") { literal = literal.dropFirst().dropLast() }
    if Loopback.isLoopback(literal) { return true }
    guard let address = try? SocketAddress.makeAddressResolvingHost(host, port: 0).ipAddress else {
      return false
    }
    return Loopback.isLoopback(address)
  }

  /// Unbuffered, so that lines show up at once when stdout is a pipe.
  public static let printToStandardOutput: @Sendable (String) -> Void = { message in
    FileHandle.standardOutput.write(Data((message + "\n").utf8))
  }

  public static let printToStandardError: @Sendable (String) -> Void = { message in
    FileHandle.standardError.write(Data((message + "\n").utf8))
  }
}

/// Why the preview server could not start.
public enum PreviewError: Error, Hashable, Sendable, CustomStringConvertible {
  case portInUse(host: String, port: Int)
  case cannotBind(host: String, port: Int, reason: String)

  public var description: String {
    switch self {
    case .portInUse(_, let port):
      "port \(port) is already in use; try --port \(port + 1)"
    case .cannotBind(let host, let port, let reason):
      "cannot listen on \(host):\(port): \(reason)"
    }
  }

  /// Recognises the errors NIO throws when `bind` fails; nil for others.
  init?(bindingFailure error: any Error, host: String, port: Int) {
    if let error = error as? IOError {
      if error.errnoCode == EADDRINUSE {
        self = .portInUse(host: host, port: port)
      } else {
        self = .cannotBind(host: host, port: port, reason: String(cString: strerror(error.errnoCode)))
      }
    } else if error is SocketAddressError.UnknownHost {
      self = .cannotBind(host: host, port: port, reason: "unknown host")
    } else if error is SocketAddressError {
      self = .cannotBind(host: host, port: port, reason: "cannot resolve \(host)")
    } else {
      return nil
    }
  }
}
