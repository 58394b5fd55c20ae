import Foundation

/// The folders builds leave beside the output — staging folders of builds
/// that died, replaced sites on their way out — and their removal: in the
/// background by a detached `rm -rf` where one can be started, so a build
/// does not wait for it. Needs only the output's resolved path, so an
/// up-to-date build clears them up without checking the output folder.
struct LeftoverFolders {
  let names: OwnedNames
  var removal: SiteWriter.OldSiteRemoval = .background

  /// For an output by its resolved path (`OutputFolder.resolve`).
  init(outputPath: String) {
    names = OwnedNames(outputPath: outputPath)
  }

  init(names: OwnedNames, removal: SiteWriter.OldSiteRemoval) {
    self.names = names
    self.removal = removal
  }

  /// Clears up after builds that died. A staging folder whose process is
  /// gone becomes the previous site if there is none (any earlier site is
  /// a good start for the next build: it is compared file by file);
  /// other leftovers are removed in the background. With `all`, every
  /// staging folder goes, even those of running builds, and so does the
  /// previous site.
  ///
  /// Only names a build makes are looked at, each through the guard
  /// (`OwnedNames.check`) before it is renamed or removed: a symbolic link,
  /// a file or a mount point at one of them is reported — every one found —
  /// and left as it is.
  func remove(all: Bool = false) throws(DiagnosticsError) {
    var problems: [Diagnostic] = []
    func passes(_ name: String) -> Bool {
      do { return try names.check(name) == .present } catch {
        problems += error.diagnostics
        return false
      }
    }
    let previous = names.path(names.previous)
    // The previous site is checked whether or not it is touched here: it
    // is what a leftover becomes, and what the build claims next.
    let hasPrevious = passes(names.previous)
    if all && hasPrevious { discard(previous) }
    let listed = (try? FileManager.default.contentsOfDirectory(atPath: names.parent)) ?? []
    for name in listed.sorted() {
      guard let owned = names.parse(name), owned.kind == .folder, let pid = owned.pid, pid != getpid()
      else { continue }
      guard all || !Self.isRunning(pid) else { continue }
      guard passes(name) else { continue }
      let path = names.path(name)
      if !all && owned.isStaging && problems.isEmpty && (try? names.check(names.previous)) == .absent
        && rename(path, previous) == 0
      {
        continue
      }
      discard(path)
    }
    if !problems.isEmpty { throw DiagnosticsError(problems) }
  }

  /// A name of its own for each site being removed: an earlier one may
  /// still be in the hands of its `rm`.
  func removalPath() -> String {
    names.path(names.oldPrefix + String(getpid()) + "-" + UUID().uuidString.prefix(8).lowercased())
  }

  /// Removes a folder beside the output, in the background where it can.
  /// Only one that passes the guard: anything else is left where it is.
  func discard(_ path: String) {
    guard names.isPresentAndOurs((path as NSString).lastPathComponent) else { return }
    let target = removalPath()
    removeLater(rename(path, target) == 0 ? target : path)
  }

  /// Removes a folder nothing else uses any more: in the background, or
  /// now (`.inline`, or when no `rm` can be started).
  func removeLater(_ path: String) {
    if removal == .background && Disk.removeDetached(path) { return }
    try? FileManager.default.removeItem(atPath: path)
  }

  static func isRunning(_ pid: Int32) -> Bool {
    kill(pid, 0) == 0 || errno == EPERM
  }
}
