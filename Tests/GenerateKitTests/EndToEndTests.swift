import Foundation
import Testing

/// Runs the built `generate` executable the way a user does.
@Suite struct EndToEndTests {
  static var executable: URL {
    packageRoot.appendingPathComponent(".build/debug/generate")
  }

  func run(_ arguments: [String], in folder: URL) throws -> (status: Int32, out: String, err: String) {
    let result = try runProcess(Self.executable.path, arguments, in: folder)
    return (result.status, String(decoding: result.stdout, as: UTF8.self), result.err)
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable.path)))
  func buildsTheFixtureAndReportsEachStep() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    let result = try run(["--config", "site.yml", "--output", "public"], in: project.root)
    #expect(result.status == 0, "\(result.err)")
    for step in [
      "[1/6] Loading data", "[2/6] Preparing documents", "[3/6] Building index", "[4/6] Rendering pages",
      "[5/6] Validating pages", "[6/6] Publishing to public",
    ] {
      #expect(result.out.contains(step), "missing progress line \(step)")
    }
    #expect(result.out.contains("Built 9 pages from 12 records into public/"))
    #expect(FileManager.default.fileExists(atPath: project.path("public/albums/10-lemonade/index.html")))
    #expect(FileManager.default.fileExists(atPath: project.path("public/sitemap.xml")))
    #expect(FileManager.default.fileExists(atPath: project.path("public/robots.txt")))
  }

  /// The command line, not only the server, keeps the DNS-rebinding check
  /// when `--host` names loopback.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable.path)))
  func previewWithALoopbackHostStillRefusesOtherNames() async throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    let process = Process()
    process.executableURL = Self.executable
    process.arguments = [
      "preview", "--config", "site.yml", "--output", "preview", "--host", "127.0.0.1", "--port", "0",
    ]
    process.currentDirectoryURL = project.root
    let stdout = Pipe()
    process.standardOutput = stdout
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer {
      process.terminate()
      process.waitUntilExit()
    }
    // A hung server must not hang the tests: its end closes the pipe. Three
    // minutes, not one: with the whole suite running on two loaded cores the
    // server once took more than a minute to say where it serves.
    DispatchQueue.global().asyncAfter(deadline: .now() + 180) { if process.isRunning { process.terminate() } }
    let port = try await offPool { () -> Int? in
      var text = ""
      let marker = "Serving http://127.0.0.1:"
      while true {
        let chunk = stdout.fileHandleForReading.availableData
        if chunk.isEmpty { return nil }
        text += String(decoding: chunk, as: UTF8.self)
        if let start = text.range(of: marker)?.upperBound {
          let digits = text[start...].prefix(while: \.isNumber)
          if text[start...].dropFirst(digits.count).first == "/" { return Int(digits) }
        }
      }
    }
    let client = HTTPTestClient(port: try #require(port, "no Serving line"))
    #expect(try await client.get("/").status == 200)
    #expect(try await client.get("/", headers: ["Host": "evil.example:\(client.port)"]).status == 403)
    #expect(try await client.get("/__preview/events", headers: ["Host": "evil.example"]).status == 403)
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable.path)))
  func aBrokenDatasetExitsNonZeroWithALocation() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    #expect(try run(["--config", "site.yml", "--output", "public", "--quiet"], in: project.root).status == 0)
    let before = try snapshotFolder(project.path("public"))
    try project.write(
      "data/tracks.csv",
      "id,name,album_id,genre_id,composer,milliseconds\n100,Formation,10,2,,206000\n101,Hold Up,77,2,,221000\n"
    )
    let result = try run(["--config", "site.yml", "--output", "public"], in: project.root)
    #expect(result.status == 1)
    #expect(
      result.err.contains(
        "data/tracks.csv:3:13: error: record 101: album_id refers to albums '77', which does not exist"),
      "\(result.err)")
    #expect(result.err.contains("public/ was left unchanged"))
    #expect(try snapshotFolder(project.path("public")) == before)
  }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable.path)))
  func helpListsTheOptions() throws {
    let result = try run(["build", "--help"], in: packageRoot)
    for option in ["--config", "--output", "--base-url", "--clean", "--quiet", "--verbose"] {
      #expect(result.out.contains(option), "help lacks \(option)")
    }
  }
}
