import Foundation

/// A command-line build's record (`BuildRecord`): a build whose inputs and
/// published site are as the last one recorded returns at once.
extension SiteBuilder {
  /// `build()` from the inputs' fingerprint, taken before the build reads
  /// them (nil when the config cannot be loaded).
  func build(fingerprinted fingerprint: BuildRecord.Fingerprint?, started: Date) throws -> BuildSummary {
    let resolved = resolvedOutput()
    // No record beside an output that cannot be: step 1 reports it.
    guard case .success(let output) = resolved else { return try buildSite(output: resolved) }
    // The record's name through the guard before it is read, replaced or
    // removed: a link there is never followed (`OwnedNames`).
    let names = OwnedNames(outputPath: output)
    _ = try names.check(names.record)
    let fingerprinted = Date()
    if let summary = try upToDate(output, inputs: fingerprint?.lines, started: started) { return summary }
    let checked = Date()
    var summary = try buildSite(output: resolved)
    let built = Date()
    keepRecord(of: summary, output, names: names, fingerprint: fingerprint)
    if verbose {
      func milliseconds(_ from: Date, _ to: Date) -> Int { Int(to.timeIntervalSince(from) * 1000) }
      log(
        "      build record: inputs fingerprinted in \(milliseconds(started, fingerprinted)) ms, checked in \(milliseconds(fingerprinted, checked)) ms, written in \(milliseconds(built, Date())) ms"
      )
    }
    summary.seconds = Date().timeIntervalSince(started)
    return summary
  }

  /// The summary of the recorded build when the inputs and every entry of
  /// the live site are as it says; nil when the site must be built (with
  /// `--clean`, the record is removed).
  private func upToDate(_ output: String, inputs: [String]?, started: Date) throws -> BuildSummary? {
    let recordPath = BuildRecord.path(forOutput: output)
    if options.clean {
      unlink(recordPath)
      return nil
    }
    guard let inputs, let record = BuildRecord(contentsOf: recordPath), record.inputs == inputs else {
      return nil
    }
    guard let entries = BuildRecord.entries(of: output), record.matches(entries) else {
      if verbose { log("      the site was changed since the last build: building it again") }
      return nil
    }
    // A build killed since the recorded one left the site as it was,
    // and perhaps its staging folder: that goes (or becomes the
    // previous site) as any build would clear it.
    try LeftoverFolders(outputPath: output).remove()
    let milliseconds = Int(Date().timeIntervalSince(started) * 1000)
    log(
      "Up to date: the inputs and the \(entries.count) entries of \(options.outputPath) are as the last build left them (checked in \(milliseconds) ms; --clean builds anyway)"
    )
    var summary = BuildSummary(
      pages: record.pages, records: record.records, indexBytes: record.indexBytes,
      seconds: Date().timeIntervalSince(started))
    summary.upToDate = true
    return summary
  }

  /// Writes the record of a build, or removes the last one when this
  /// build's site cannot be promised to be what its inputs build.
  private func keepRecord(
    of summary: BuildSummary, _ output: String, names: OwnedNames, fingerprint: BuildRecord.Fingerprint?
  ) {
    let recordPath = BuildRecord.path(forOutput: output)
    // A record is a promise that the site is what these inputs build. An
    // input that changed while the build read it (an edit saved, a file
    // swapped and put back) breaks it: the site may hold the edit while the
    // fingerprint says otherwise, so no record is written and the next
    // build builds.
    let unchanged = fingerprint?.isUnchanged() ?? false
    // Local pictures are named by the data, not the config, so the
    // fingerprint cannot list them before the build: such a site is always
    // built, or an edited picture would never be published.
    if let inputs = fingerprint?.lines, unchanged, summary.warnings.isEmpty, !summary.copiesLocalImages,
      let entries = BuildRecord.entries(of: output)
    {
      BuildRecord(
        inputs: inputs, pages: summary.pages, records: summary.records, indexBytes: summary.indexBytes,
        entries: entries
      ).write(to: recordPath, names: names)
    } else {
      if (try? names.check(names.record)) == .present { unlink(recordPath) }
      if fingerprint != nil && !unchanged && verbose {
        log("      an input changed during the build: no build record written")
      }
    }
  }
}
