import Foundation
import ServiceLifecycle

/// Watches the inputs and rebuilds the site when they change, one build at
/// a time, then tells open pages through the hub.
///
/// The loop is sequential on purpose: the snapshot that triggered a build is
/// taken before it starts, so anything saved while it runs shows up as a
/// difference on the next scan and causes exactly one more build, however
/// many saves there were.
struct RebuildService: Service, CustomStringConvertible {
  var watcher: FileWatcher
  var rebuild: PreviewServer.ReportingRebuild
  var hub: ReloadHub
  /// Answers from a build's files while it writes them.
  var overlay = SiteOverlay()
  /// Lets requests that miss during a build wait for it.
  var gate = BuildGate()
  /// The Content-Security-Policy of the last build, which the server sends.
  let policy = ContentPolicy()
  var pollInterval: Duration
  /// How long the files must hold still before a build starts: editors and
  /// `git checkout` write several files, or one file in several steps.
  var debounce: Duration
  var log: @Sendable (String) -> Void
  var warn: @Sendable (String) -> Void
  /// The inputs as they were when the last build started.
  var snapshot: FileWatcher.Snapshot
  /// Re-reads the watch list after each build: an edited config may name
  /// other template or data folders.
  var watchedPaths: (@Sendable () -> [String])?
  /// Where the site is served, for the page addresses a reload names.
  var basePath: BasePath = .root

  var description: String { "RebuildService" }

  /// How often a nudge (`ChangeNudge`) is looked for between polls.
  static let nudgeInterval = Duration.milliseconds(20)

  func run() async throws {
    var snapshot = self.snapshot
    var watcher = self.watcher
    var mayGiveWay = true
    // Where the system tells of changes, a save is looked at within
    // `nudgeInterval` instead of at the next poll (up to `pollInterval`).
    let nudge = ChangeNudge()
    func look() -> FileWatcher.Snapshot {
      var folders = Set<String>()
      let snapshot = watcher.snapshot(folders: &folders)
      nudge?.watch(folders)
      return snapshot
    }
    _ = look()
    while !Task.isShuttingDownGracefully {
      var waited = Duration.zero
      while waited < pollInterval {
        let step = nudge == nil ? pollInterval : min(Self.nudgeInterval, pollInterval - waited)
        do { try await Task.sleep(for: step) } catch { return }
        waited += step
        if nudge?.take() == true { break }
      }
      var next = look()
      guard next != snapshot else { continue }
      // A file rewritten without pause (a log in a template folder) must
      // not hold builds off forever, hence the cap.
      var settled: FileWatcher.Snapshot
      var rounds = 0
      repeat {
        settled = next
        rounds += 1
        do { try await Task.sleep(for: debounce) } catch { return }
        next = look()
      } while next != settled && rounds < 10 && !Task.isShuttingDownGracefully
      // The config may name other files now: they are watched from before
      // the build reads them, so an edit to one saved during the build (or
      // right after it) is a change to the next build, not the state it
      // starts from.
      if let refreshed = refreshWatchList(&watcher, snapshot: snapshot) {
        snapshot = refreshed
        next = look()
      }
      let changed = FileWatcher.changes(from: snapshot, to: next)
      snapshot = next
      log("Rebuilding: \(Self.describe(changed))")
      // At most one build in a row gives way to a newer edit: a file
      // rewritten without pause must not keep every build from finishing.
      // Whether it must is judged by the watch list this build started
      // from, the one `next` was taken with.
      let superseded = await build(startedFrom: mayGiveWay ? next : nil, watching: watcher)
      mayGiveWay = !superseded
      // And again after the build: the config may have been edited during it.
      if let refreshed = refreshWatchList(&watcher, snapshot: snapshot) {
        snapshot = refreshed
        _ = look()
      }
    }
  }

  /// Reads the watch list again (`watchedPaths`); when it changed, sets it
  /// on `watcher` and returns `snapshot` rebased onto it (files newly
  /// watched taken as they are now, see `FileWatcher.rebased`).
  private func refreshWatchList(_ watcher: inout FileWatcher, snapshot: FileWatcher.Snapshot)
    -> FileWatcher.Snapshot?
  {
    guard let watchedPaths else { return nil }
    let paths = watchedPaths()
    guard paths != watcher.paths else { return nil }
    let oldPaths = watcher.paths
    watcher.paths = paths
    return FileWatcher.rebased(snapshot, watching: oldPaths, onto: watcher.snapshot(), watching: paths)
  }

  /// Runs one build and reports it: diagnostics to stderr and the hub on
  /// failure, a reload on success. Never throws; the server keeps serving
  /// whatever the last good build left in the folder.
  ///
  /// - Parameter snapshot: the inputs the build starts from; when given,
  ///   the build may stop once it has shown the open pages if they change
  ///   again (see `BuildProgress.isSuperseded`).
  /// - Returns: whether the build stopped for a newer edit.
  /// - Parameter watching: the watcher `snapshot` was taken with (the
  ///   watch list changes with the config); `self.watcher` when nil.
  @discardableResult
  func build(startedFrom snapshot: FileWatcher.Snapshot? = nil, watching: FileWatcher? = nil) async -> Bool {
    let started = ContinuousClock.now
    let rebuild = self.rebuild
    gate.buildStarted()
    defer { gate.buildFinished() }
    // A build that hands its files over early reloads the pages then; the
    // folder catches up before the build returns.
    let announced = Announced()
    let (hub, overlay, basePath) = (self.hub, self.overlay, self.basePath)
    var progress = PreviewServer.BuildProgress { files, changed in
      overlay.show(files)
      announced.set()
      // Past `mostPagesNamed` every open page reloads, but those already
      // shown with these bytes.
      let pages = changed.map { Self.pages(in: $0, basePath: basePath) }
      let again = Set(pages ?? [])
      hub.buildSucceeded(reloading: pages, except: announced.shownFirst.filter { !again.contains($0) })
    }
    progress.policy = { [policy] in policy.set($0) }
    progress.openPages = Set(hub.openPages.compactMap { Self.sitePath(of: $0, basePath: basePath) })
    progress.openReady = { files, changed in
      overlay.show(files)
      let pages = Self.pages(in: changed ?? [], basePath: basePath)
      announced.shownFirst = pages
      hub.buildSucceeded(reloading: pages)
    }
    if let snapshot {
      // The same paths the snapshot was taken of: with the list it started
      // from, a file the config has named since would always differ, and
      // stop every build after the config edit.
      let watcher = watching ?? self.watcher
      progress.superseded = { watcher.snapshot() != snapshot }
    }
    let ready = progress
    // Builds are synchronous and can take seconds: give each a thread of
    // its own rather than block the small cooperative pool that answers
    // requests, or Dispatch's global queues, which on Linux grow slowly
    // when their threads are busy.
    let result: Result<[String]?, any Error> = await withCheckedContinuation { continuation in
      let thread = Thread {
        let result = Result { try rebuild(ready) }
        // The folder holds what the build wrote (or, on failure, the
        // last good site): serve it again.
        overlay.clear()
        continuation.resume(returning: result)
      }
      thread.name = "generate preview build"
      thread.start()
    }
    switch result {
    case .success(let changed):
      let seconds = (ContinuousClock.now - started) / .milliseconds(1) / 1000
      let pages = changed.map { Self.pages(in: $0, basePath: basePath) }
      let what = pages.map { $0.isEmpty ? "; no page changed" : "; \($0.count) pages changed" } ?? ""
      log("Built in \(String(format: "%.2f", seconds)) s\(what)")
      if !announced.isSet { hub.buildSucceeded(reloading: pages) }
    case .failure(is PreviewBuild.Superseded):
      log("Stopped: the inputs changed again; the folder still holds the last good site")
      return true
    case .failure(let error):
      let text = Self.diagnosticsText(for: error)
      warn(text)
      hub.buildFailed(text)
    }
    return false
  }

  /// The site-relative path of an open page's address, or nil when the
  /// page is not under the base path.
  static func sitePath(of address: String, basePath: BasePath) -> String? {
    let base = basePath.segments.isEmpty ? "/" : "/" + basePath.segments.joined(separator: "/") + "/"
    guard address.hasPrefix(base) else { return nil }
    return String(address.dropFirst(base.count))
  }

  /// The addresses of the HTML pages among changed site files, as an open
  /// page knows its own (`/music/albums/1-x/index.html`).
  static func pages(in changed: [String], basePath: BasePath) -> [String] {
    changed.filter { $0.hasSuffix(".html") }.map { basePath.path + $0 }
  }

  static func diagnosticsText(for error: any Error) -> String {
    switch error {
    case let error as DiagnosticsError: error.description
    case let error as Diagnostic: error.description
    default: "error: \(error)"
    }
  }

  private static func describe(_ changed: [String]) -> String {
    guard let first = changed.first else { return "inputs changed" }
    return changed.count == 1 ? "\(first) changed" : "\(first) and \(changed.count - 1) more changed"
  }
}

/// Whether a build has announced its files, and which open pages it
/// reloaded first; set from the build's thread.
private final class Announced: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  private var first: [String] = []
  func set() { lock.withLock { value = true } }
  var isSet: Bool { lock.withLock { value } }
  var shownFirst: [String] {
    get { lock.withLock { first } }
    set { lock.withLock { first = newValue } }
  }
}
