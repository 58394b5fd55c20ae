import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension SiteWriter {
  /// One publish in three parts, so that a build can hand its files over a
  /// batch at a time as they are made (a million records' pages need not
  /// all be in memory): `init` claims the staging folder — the previous
  /// site when there is one — and, knowing every path the new site will
  /// hold, clears out what it will not and makes the folders; `write`
  /// writes a batch, each file as `publish(_:)` does (kept when its bytes
  /// are the same, hard-linked from the live site, or written as a new
  /// inode); `finish` writes the last files and the marker, and swaps the
  /// folder in. Until then the output is untouched. After any failure the
  /// staging folder is kept as the next previous site (every file is
  /// compared again) or removed, as is one given up with `abandon()`.
  final class Update {
    let writer: SiteWriter
    let staging: URL
    private let root: Folder
    private let live: Folder?
    private let expected: ExpectedFile
    private var planned: Set<String>
    /// Files of the previous site the new one keeps a path of: compared
    /// before being replaced.
    private let existing: Set<String>
    private var written = Set<String>()
    private var done = false
    /// What was written, linked and kept so far.
    private(set) var report = Report()

    /// Claims the staging folder for a site of exactly these site-relative
    /// paths (the marker is added).
    init(_ writer: SiteWriter, paths: [String]) throws {
      self.writer = writer
      let fileManager = FileManager.default
      let staging = writer.stagingURL
      self.staging = staging
      let names = writer.names
      // Both names through the guard before anything is done to them: a
      // link at either would have the site's clearing and writing follow it.
      // Nothing is claimed yet, so a failure here leaves everything as it was.
      if try names.check(staging.lastPathComponent) == .present {
        // Left by an earlier process of this id: a folder of ours, on our
        // device.
        try? fileManager.removeItem(at: staging)
      }
      let hasPrevious = try names.check(names.previous) == .present
      do {
        // The previous site, claimed by renaming it (another build at the
        // same time gets none), is brought up to date; else a new folder.
        // Checked again once claimed: something swapped in between the
        // check and the rename is refused before it is emptied.
        let updating =
          writer.reusesUnchangedFiles && hasPrevious && rename(writer.previousURL.path, staging.path) == 0
        if updating && (try? names.check(staging.lastPathComponent)) != .present {
          throw DiagnosticsError(
            .error(
              at: nil,
              "'\(DatasetLoader.displayPath(writer.previousURL.path))' beside the output changed while it was claimed; it is left at '\(DatasetLoader.displayPath(staging.path))' untouched — remove it"
            ))
        }
        if !updating { try SiteWriter.makeFolder(staging.path, shown: writer.shownPath) }
        let relative = paths + [OutputFolder.markerName]
        if let bad = relative.first(where: { !SiteWriter.isPlain($0) }) {
          throw DiagnosticsError(
            .error(
              at: SourceLocation(file: writer.shownPath),
              "refusing to write '\(bad)': it is not a plain path inside the site"))
        }
        planned = Set(relative)
        let folders = SiteWriter.folders(for: relative)
        existing =
          updating ? try writer.clear(staging.path, keeping: planned, folders: Set(folders.joined())) : []
        // Paths relative to the two folders' descriptors: the kernel walks
        // `packages/vim/index.html`, not the whole path, for every file.
        root = try Folder(staging.path)
        live =
          writer.reusesUnchangedFiles
          ? SiteWriter.liveSite(writer.outputPath).flatMap { try? Folder($0) } : nil
        try SiteWriter.makeFolders(folders, in: root)
        expected = SiteWriter.expectedFile()
      } catch {
        throw Self.giveUp(staging, writer, error)
      }
    }

    /// Adds paths to the site (the index, built while the first pages were
    /// written) and makes their folders. The previous site's files at these
    /// paths were cleared at `init`: they are linked from the live site
    /// when the same, or written.
    func plan(_ paths: [String]) throws {
      do {
        if let bad = paths.first(where: { !SiteWriter.isPlain($0) }) {
          throw DiagnosticsError(
            .error(
              at: SourceLocation(file: writer.shownPath),
              "refusing to write '\(bad)': it is not a plain path inside the site"))
        }
        planned.formUnion(paths)
        try SiteWriter.makeFolders(SiteWriter.folders(for: paths), in: root)
      } catch {
        abandon()
        throw Self.describe(error, writer)
      }
    }

    /// Writes these files (over all cores, in the order given: the first
    /// failure reported is the same every time). Each path must be one
    /// given to `init`, written once.
    func write(_ files: [(path: String, bytes: [UInt8])]) throws {
      do {
        if let stray = files.first(where: { !planned.contains($0.path) || written.contains($0.path) }) {
          throw DiagnosticsError(
            .error(
              at: SourceLocation(file: writer.shownPath),
              "refusing to write '\(stray.path)': not a planned path of the site, or written twice"))
        }
        let (root, live, expected, existing) = (root, live, expected, existing)
        let outcomes = SiteWriter.mapByParent(files.map(\.path)) { index -> Result<Outcome, any Error> in
          let path = files[index].path
          let bytes = files[index].bytes
          if existing.contains(path) {
            if SiteWriter.holds(path, in: root, bytes, expected) { return .success(.kept) }
            // Never written through: it may be a hard link to the live site.
            guard unlinkat(root.descriptor, path, 0) == 0 else {
              let reason = String(cString: strerror(errno))
              return .failure(
                DiagnosticsError(
                  .error(at: SourceLocation(file: root.path + "/" + path), "cannot replace file: \(reason)")))
            }
          }
          if let live, SiteWriter.holds(path, in: live, bytes, expected),
            linkat(live.descriptor, path, root.descriptor, path, 0) == 0
          {
            return .success(.linked)
          }
          do {
            try SiteWriter.writeFile(bytes, to: path, in: root)
            return .success(.written)
          } catch {
            return .failure(error)
          }
        }
        for file in files { written.insert(file.path) }
        for outcome in outcomes {
          switch outcome {
          case .success(.kept): report.kept += 1
          case .success(.linked): report.linked += 1
          case .success(.written): report.written += 1
          case .failure(let error): throw error
          }
        }
      } catch {
        abandon()
        throw Self.describe(error, writer)
      }
    }

    /// The file at `path` as written so far (a page whose broken link is
    /// placed by line and column).
    func read(_ path: String) -> [UInt8]? {
      guard written.contains(path) else { return nil }
      return FileManager.default.contents(atPath: staging.path + "/" + path).map { [UInt8]($0) }
    }

    /// Writes the last files and the marker, removes any file of the
    /// previous site at a planned path that was not written, and swaps the
    /// folder in. Returns warnings (the new site is live, but something
    /// after the swap failed).
    func finish(_ files: [(path: String, bytes: [UInt8])]) throws -> [Diagnostic] {
      try write(files + [(OutputFolder.markerName, Array(OutputFolder.markerText.utf8))])
      for path in existing.subtracting(written) where unlinkat(root.descriptor, path, 0) != 0 {
        let reason = String(cString: strerror(errno))
        abandon()
        throw DiagnosticsError(
          .error(at: SourceLocation(file: root.path + "/" + path), "cannot remove: \(reason)"))
      }
      done = true
      return try writer.swapIn(staging)
    }

    /// Gives the staging folder up (the build failed): the output stays as
    /// it was, and what was staged is kept as the next previous site.
    func abandon() {
      guard !done else { return }
      done = true
      Self.setAside(staging, writer)
    }

    private static func setAside(_ staging: URL, _ writer: SiteWriter) {
      // Only a staging folder that passes the guard is moved or removed,
      // and only onto a previous site's name that is free.
      let names = writer.names
      guard names.isPresentAndOurs(staging.lastPathComponent) else { return }
      // What was staged is as good a start for the next build as the
      // previous site was (every file is compared again).
      if !(writer.keepsPreviousSite && (try? names.check(names.previous)) == .absent
        && rename(staging.path, writer.previousURL.path) == 0)
      {
        writer.discard(staging)
      }
    }

    private static func giveUp(_ staging: URL, _ writer: SiteWriter, _ error: any Error) -> DiagnosticsError {
      setAside(staging, writer)
      return describe(error, writer)
    }

    private static func describe(_ error: any Error, _ writer: SiteWriter) -> DiagnosticsError {
      if let error = error as? DiagnosticsError { return error }
      return DiagnosticsError(
        .error(
          at: SourceLocation(file: writer.shownPath), "cannot write the site: \(SiteWriter.describe(error))"))
    }
  }
}
