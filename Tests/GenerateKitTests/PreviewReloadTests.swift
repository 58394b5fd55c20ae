import Foundation
import Testing

@testable import GenerateKit

/// Rebuilding on changes, telling open pages, and starting up.
@Suite struct PreviewReloadTests {

  @Test func rebuildsWhenAWatchedFileChangesAndTellsOpenPages() async throws {
    let project = try PreviewFolder()
    try project.write("Data/tracks.csv", "v1")

    try await project.withServer(watching: ["Data"], rebuild: project.renderTracks) { client in
      #expect(try await client.get("/").text == "<p>v1</p>")
      let page = try await client.openEvents()
      _ = try await page.waitFor("event: hello")

      try project.write("Data/tracks.csv", "version 2")
      _ = try await page.waitFor("event: reload")
      #expect(try await client.get("/").text == "<p>version 2</p>")
    }
  }

  /// Where the system tells of changes (inotify), a save is noticed at
  /// once, not at the next poll: with polls a minute apart, the edit still
  /// reloads the open page within seconds — in a template folder, in a
  /// folder made after the server started, and for a file saved by
  /// renaming a new one over it, as editors do.
  @Test(.enabled(if: ChangeNudge() != nil, "no change notifications on this system"))
  func aSaveIsNoticedWithoutWaitingForThePoll() async throws {
    let project = try PreviewFolder()
    try project.write("Data/tracks.csv", "v1")

    try await project.withServer(
      watching: ["Data"], pollInterval: .seconds(60), rebuild: project.renderTracks
    ) { client in
      let page = try await client.openEvents()
      _ = try await page.waitFor("event: hello")

      try project.write("Data/tracks.csv", "version 2")
      _ = try await page.waitFor("event: reload")
      #expect(try await client.get("/").text == "<p>version 2</p>")

      try project.write("Data/new/notes.txt", "a new folder")
      _ = try await page.waitFor("event: reload", occurrences: 2)
      try await Task.sleep(for: .milliseconds(100))
      try project.write("Data/new/notes.txt", "edited in the new folder")
      _ = try await page.waitFor("event: reload", occurrences: 3)

      let saved = project.root.appendingPathComponent("Data/.tracks.csv.tmp")
      try "version 3".write(to: saved, atomically: false, encoding: .utf8)
      #expect(rename(saved.path, project.path("Data/tracks.csv")) == 0)
      _ = try await page.waitFor("event: reload", occurrences: 4)
      #expect(try await client.get("/").text == "<p>version 3</p>")
    }
  }

  /// Only what the build reads is watched: SQLite's `-shm` index, an
  /// editor's swap, lock and backup files, or anything else beside a data
  /// file cause no build; an edit to a data file, the database, its `-wal`
  /// or `-journal`, or a template does.
  @Test func filesBesideTheDataFilesTriggerNoBuild() async throws {
    let project = try PreviewFolder()
    try project.copyFixture("mini")
    let config = try String(contentsOf: project.root.appendingPathComponent("site.yml"), encoding: .utf8)
    try project.write(
      "site.yml",
      config.replacingOccurrences(
        of: "genres: { file: data/genres.csv, key: id }",
        with: "genres: { sqlite: data/catalogue.sqlite, table: genres, key: id }"))
    try project.write("data/catalogue.sqlite", "database")
    let builds = BuildCounter()

    try await project.withServer(
      watchingInputsOf: "site.yml", buildsAtStart: false,
      rebuild: {
        builds.started()
        builds.finished()
      }
    ) { _ in
      let bystanders = [
        "data/catalogue.sqlite-shm", "data/.#tracks.csv", "data/.tracks.csv.swp", "data/x.swp",
        "data/tracks.csv~", "data/notes.txt",
        "data/exports/tracks.csv", "notes.md",
      ]
      for round in 1...3 {
        for file in bystanders { try project.write(file, "round \(round)") }
        try await Task.sleep(for: .milliseconds(200))
      }
      try FileManager.default.removeItem(atPath: project.path("data/catalogue.sqlite-shm"))
      try await Task.sleep(for: .milliseconds(400))
      #expect(builds.count == 0, "nothing the build reads changed")

      try project.write("data/tracks.csv", "id,name\n1,edited\n")
      try await eventually { builds.count == 1 }
      try project.write("data/catalogue.sqlite", "database, edited")
      try await eventually { builds.count == 2 }
      try project.write("templates/partials/new.mustache", "{{title}}")
      try await eventually { builds.count == 3 }
      // A change committed to the database's `-wal` (its writer still
      // connected, no checkpoint) or under way in its `-journal` is read
      // with it (`SQLiteSource`).
      try project.write("data/catalogue.sqlite-wal", "a commit")
      try await eventually { builds.count == 4 }
      try project.write("data/catalogue.sqlite-journal", "a transaction")
      try await eventually { builds.count == 5 }
    }
  }

  /// A config edit that names a new data file: the file is watched from
  /// that build on, and its first edit builds — not "Stopped: the inputs
  /// changed again" with the edit never built.
  @Test func aDataFileTheConfigNowNamesIsWatchedAndItsFirstEditBuilt() async throws {
    let project = try PreviewFolder()
    try project.copyFixture("mini")
    try project.write("data/genres2.csv", "id,name\n1,first\n")
    let builds = BuildCounter()
    let seen = Lines()
    let lines = Lines()

    try await project.withServer(
      watchingInputsOf: "site.yml", buildsAtStart: false, log: lines.append,
      reportingChanges: { progress in
        builds.started()
        defer { builds.finished() }
        // As the site builder does after showing the open pages: a newer
        // edit stops it, and the next build starts from that edit.
        if progress.isSuperseded { throw PreviewBuild.Superseded() }
        seen.append((try? String(contentsOfFile: project.path("data/genres2.csv"), encoding: .utf8)) ?? "")
        return nil
      }
    ) { _ in
      let config = try String(contentsOf: project.root.appendingPathComponent("site.yml"), encoding: .utf8)
      try project.write(
        "site.yml", config.replacingOccurrences(of: "data/genres.csv", with: "data/genres2.csv"))
      try await eventually { builds.count == 1 && !builds.isRunning }
      try await Task.sleep(for: .milliseconds(150))

      try project.write("data/genres2.csv", "id,name\n1,second\n")
      try await eventually { seen.all.contains { $0.contains("second") } }
      #expect(!lines.all.contains { $0.hasPrefix("Stopped") }, "\(lines.all)")
    }
  }

  @Test func aFailedRebuildShowsTheErrorAndKeepsTheLastGoodSite() async throws {
    let project = try PreviewFolder()
    try project.write("Data/tracks.csv", "v1")

    try await project.withServer(watching: ["Data"], rebuild: project.renderTracks) { client in
      let page = try await client.openEvents()
      _ = try await page.waitFor("event: hello")

      try project.write("Data/tracks.csv", "broken")
      let stream = try await page.waitFor("event: error")
      #expect(
        stream.contains(
          "data: Data/tracks.csv:1:1: error: the row is broken\ndata: Data/tracks.csv:2:1: error: so is this one\n\n"
        ))
      #expect(try await client.get("/").text == "<p>v1</p>", "the last good site is still served")

      let latecomer = try await client.openEvents()
      _ = try await latecomer.waitFor("data: Data/tracks.csv:1:1: error: the row is broken")

      try project.write("Data/tracks.csv", "fixed again")
      let after = try await page.waitFor("event: reload")
      let ok = try #require(after.range(of: "event: ok"))
      let reload = try #require(after.range(of: "event: reload"))
      #expect(ok.lowerBound < reload.lowerBound, "ok clears the overlay before the reload")
      #expect(try await client.get("/").text == "<p>fixed again</p>")
    }
  }

  /// A build that hands its files over before writing them: open pages
  /// reload at once and are answered from memory — files, folders, the
  /// 404 page — until the folder holds the new site.
  @Test func pagesAreAnsweredFromMemoryWhileTheBuildWritesTheFolder() async throws {
    let project = try PreviewFolder()
    try project.write("Data/tracks.csv", "v1")
    try project.write("site/index.html", "<p>old</p>")
    try project.write("site/a/index.html", "<p>a, old</p>")
    let newSite = [
      "index.html": "<p>new</p>", "a/index.html": "<p>a, new</p>", "404.html": "<p>gone</p>",
    ]
    let written = DispatchSemaphore(value: 0)
    let root = project.root

    try await project.withServer(
      watching: ["Data"], buildsAtStart: false,
      reportingChanges: { progress in
        progress.filesReady(newSite.mapValues { Array($0.utf8) }, changed: ["404.html", "index.html"])
        // Writing the folder takes a while.
        _ = written.wait(timeout: .now() + 10)
        for (path, text) in newSite {
          try text.write(to: root.appendingPathComponent("site/\(path)"), atomically: true, encoding: .utf8)
        }
        return ["404.html", "index.html"]
      }
    ) { client in
      let page = try await client.openEvents()
      _ = try await page.waitFor("event: hello")
      try project.write("Data/tracks.csv", "v2")
      let events = try await page.waitFor("event: reload")
      #expect(events.contains(#"data: ["/404.html","/index.html"]"#), "\(events)")
      #expect(try await client.get("/").text == "<p>new</p>", "the new page before the folder has it")
      #expect(try await client.get("/a/").text == "<p>a, new</p>")
      let folder = try await client.get("/a")
      #expect(folder.status == 301)
      #expect(folder.header("Location") == "/a/")
      let missing = try await client.get("/nothing-here")
      #expect(missing.status == 404)
      #expect(missing.text == "<p>gone</p>")
      #expect(try await client.get("/index.html/").status == 404)

      written.signal()
      try await eventually { try await client.get("/nothing-here").text == "<p>gone</p>" }
      #expect(try await client.get("/a/").text == "<p>a, new</p>", "then from the folder")
      try await Task.sleep(for: .milliseconds(200))
      let stream = try await page.waitFor("event: reload")
      #expect(stream.components(separatedBy: "event: reload").count == 2, "one reload per build")
    }
  }

  @Test func buildsOneAtATimeAndOnceMoreForChangesDuringABuild() async throws {
    let project = try PreviewFolder()
    try project.write("Data/tracks.csv", "v1")
    let builds = BuildCounter()

    try await project.withServer(
      watching: ["Data"], buildsAtStart: false,
      rebuild: {
        builds.started()
        Thread.sleep(forTimeInterval: 0.4)
        builds.finished()
      }
    ) { client in
      try project.write("Data/tracks.csv", "change 1")
      try await eventually { builds.count == 1 }
      for index in 2...4 {
        try project.write("Data/tracks.csv", "change \(index)")
        try await Task.sleep(for: .milliseconds(60))
      }
      try await eventually { builds.count == 2 }
      try await Task.sleep(for: .milliseconds(900))
      #expect(builds.count == 2, "three saves during a build cause exactly one more build")
      #expect(builds.mostAtOnce == 1)
    }
  }

  @Test func showsAnErrorPageUntilTheFirstBuildSucceeds() async throws {
    let project = try PreviewFolder()
    try project.write("Data/tracks.csv", "broken <script>")

    try await project.withServer(watching: ["Data"], rebuild: project.renderTracks) { client in
      let page = try await client.get("/")
      #expect(page.status == 503)
      #expect(page.text.contains("Data/tracks.csv:1:1: error: the row is broken"))
      #expect(page.text.contains("<script type=\"module\" src=\"/__preview/reload.js\"></script>"))
      #expect(!page.text.contains("broken <script>"))

      let script = try await client.get("/__preview/reload.js")
      #expect(script.header("Content-Type") == "text/javascript; charset=utf-8")
      #expect(script.text == PreviewServer.reloadScript)

      try project.write("Data/tracks.csv", "good at last")
      try await eventually { try await client.get("/").status == 200 }
      #expect(try await client.get("/").text == "<p>good at last</p>")
    }
  }

  @Test func requestsDuringARebuildGetTheLastGoodOrTheNewSite() async throws {
    let project = try PreviewFolder()
    try project.write("Data/tracks.csv", "v1")
    let version = BuildCounter()
    // Publishes the way the builder does — old folder out, new folder in —
    // with a long pause between the two renames, when no site is there.
    let rebuild: PreviewServer.Rebuild = { [root = project.root] in
      version.started()
      let staging = root.appendingPathComponent(".site.staging")
      try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
      try "<p>v\(version.count)</p>".write(
        to: staging.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
      try "css".write(to: staging.appendingPathComponent("style.css"), atomically: true, encoding: .utf8)
      let site = root.appendingPathComponent("site")
      let old = root.appendingPathComponent(".site.old")
      if FileManager.default.fileExists(atPath: site.path) {
        try FileManager.default.moveItem(at: site, to: old)
        Thread.sleep(forTimeInterval: 0.3)
      }
      try FileManager.default.moveItem(at: staging, to: site)
      try? FileManager.default.removeItem(at: old)
      version.finished()
    }

    try await project.withServer(watching: ["Data"], rebuild: rebuild) { client in
      #expect(try await client.get("/").text == "<p>v1</p>")
      try project.write("Data/tracks.csv", "v2")
      var statuses: [Int] = []
      let deadline = ContinuousClock.now + .seconds(3)
      while ContinuousClock.now < deadline, version.count < 2 || version.isRunning {
        statuses.append(try await client.get("/").status)
        statuses.append(try await client.get("/style.css").status)
        statuses.append(try await client.get("/missing.html").status)
      }
      let expected = Array(repeating: [200, 200, 404], count: statuses.count / 3).flatMap { $0 }
      #expect(statuses == expected, "only the missing page is missing, even between the renames")
      #expect(try await client.get("/").text == "<p>v2</p>")
    }
  }

  // MARK: Starting up

  @Test func reportsAPortInUseClearly() async throws {
    let project = try PreviewFolder()
    try project.write("site/index.html", "home")

    try await project.withServer { client in
      var configuration = PreviewServer.Configuration(siteFolder: project.path("site"))
      configuration.port = client.port
      configuration.handlesSignals = false
      let second = PreviewServer(configuration: configuration, log: { _ in }, warn: { _ in }) {}
      await #expect(throws: PreviewError.portInUse(host: "127.0.0.1", port: client.port)) {
        try await second.run(onReady: { _, _ in })
      }
      #expect(
        PreviewError.portInUse(host: "127.0.0.1", port: 8000).description
          == "port 8000 is already in use; try --port 8001")
    }
  }

  @Test func warnsWhenListeningBeyondThisMachine() async throws {
    let project = try PreviewFolder()
    try project.write("site/index.html", "home")
    let warnings = Lines()

    try await project.withServer(host: "0.0.0.0", warn: warnings.append) { client in
      let response = try await client.get("/")
      #expect(response.text == "home")
    }
    #expect(warnings.all.contains { $0.contains("warning: preview is for local use") })
    #expect(PreviewServer.isLoopback("127.0.0.1") && PreviewServer.isLoopback("::1"))
    #expect(!PreviewServer.isLoopback("0.0.0.0") && !PreviewServer.isLoopback("192.168.1.2"))
  }
}
