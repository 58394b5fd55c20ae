import Foundation

/// Step 3's index: built, or being built on a thread of its own while the
/// pages that embed nothing from it are rendered (a plain build; the
/// renderer waits for it only before the pages that do — the search
/// page). Its problems go through the engine as step 3's, wherever it is
/// waited for: a failure reads as if the index had stopped the build
/// before the render began.
final class IndexStep {
  private enum State {
    case built(SiteIndex)
    case building(Parallel.Background<(index: SiteIndex, milliseconds: Int)>)
  }

  private var state: State
  private let run: BuildRun
  private let site: PreparedSite

  /// Builds the index before returning. With no previous index (the
  /// preview's): its term shards' names are a cold build's.
  init(building site: PreparedSite, config: SiteConfig, in run: BuildRun) throws {
    let index = try run.step(.indexing) {
      let index = try IndexBuilder(config.index).build(site)
      run.engine.emit(contentsOf: index.warnings)
      return index
    }
    (self.site, self.run, state) = (site, run, .built(index))
    reportCounts()
  }

  /// An index built already (kept from an earlier build).
  init(built index: SiteIndex, for site: PreparedSite, in run: BuildRun) {
    (self.site, self.run, state) = (site, run, .built(index))
  }

  /// Starts building the index on a thread of its own; its files wait in
  /// `spool` when one is given. `replacing` is the folder of the site it
  /// replaces, whose index names the shards it holds byte for byte.
  init(
    beside site: PreparedSite, config: SiteConfig, spool: IndexSpool? = nil, replacing output: String? = nil,
    in run: BuildRun
  ) {
    var builder = IndexBuilder(config.index)
    builder.spool = spool
    (self.site, self.run) = (site, run)
    state = .building(
      Parallel.Background {
        // The index's working memory (postings, plans) is free once it is
        // built, spread over the arenas of the threads that built it while
        // others rendered pages: handed back, it no longer adds to the peak.
        defer { Self.trimMemory() }
        let started = Date()
        var builder = builder
        builder.previous = output.flatMap(PreviousTermShards.init(site:))
        let index = try builder.build(site)
        return (index, Int(Date().timeIntervalSince(started) * 1000))
      })
  }

  /// The index if it is built, without waiting.
  var index: SiteIndex? {
    if case .built(let index) = state { return index }
    return nil
  }

  /// The index, once built. Throws step 3's failure when it failed, or when
  /// its warnings stop the build (`--strict`).
  func wait() throws -> SiteIndex {
    let work: Parallel.Background<(index: SiteIndex, milliseconds: Int)>
    switch state {
    case .built(let index): return index
    case .building(let building): work = building
    }
    let waitStarted = Date()
    let built: (index: SiteIndex, milliseconds: Int)
    do {
      built = try work.wait().get()
    } catch let error as DiagnosticsError {
      try run.engine.report(.indexing, error.diagnostics)
      throw error
    }
    state = .built(built.index)
    try run.engine.report(.indexing, built.index.warnings)
    run.done(.indexing, since: waitStarted, end: waitStarted + Double(built.milliseconds) / 1000)
    reportCounts()
    run.detail(
      "built beside the pages that do not embed it; the render waited \(Int(Date().timeIntervalSince(waitStarted) * 1000)) ms for it"
    )
    return built.index
  }

  /// Waits for a build that failed elsewhere: its thread may not outlive it.
  func finish() {
    if case .building(let work) = state { _ = work.wait() }
  }

  /// `--verbose`'s line about the records and the index.
  func reportCounts() {
    guard let index else { return }
    run.detail(
      "\(site.recordCount) records from \(site.dataset.tables.count) tables; index: \(index.fileCount) files, \(index.byteCount / 1024) KiB"
    )
  }

  /// glibc's `malloc_trim(0)`, where there is one (Swift's Glibc module
  /// leaves malloc.h out).
  static let trimMemory: @Sendable () -> Void = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return {} }
    let trim = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    return { _ = trim(0) }
  }()

  /// glibc's `mallopt(M_ARENA_MAX, n)`, once, where there is one: one heap
  /// a core (at least two) for the process's threads rather than eight a
  /// core. A thread on a heap of its own (the index's, a render's) cannot
  /// reuse what another freed, so each heap keeps its own high-water mark
  /// and the build's peak is their sum (MALLOC_ARENA_MAX=2 took a 300k
  /// build's peak on 2 cores from 404 to 346 MiB, about the same user
  /// CPU); a heap a core keeps the render's threads from queueing on one
  /// another's lock on a larger machine.
  static let limitArenas: Void = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
    let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
    let arenaMax: Int32 = -8  // M_ARENA_MAX in malloc.h
    _ = mallopt(arenaMax, Int32(clamping: max(2, ProcessInfo.processInfo.activeProcessorCount)))
  }()
}
