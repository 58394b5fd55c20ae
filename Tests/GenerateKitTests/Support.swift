import Foundation
import Testing

@testable import GenerateKit

/// The package root, found from this file so tests run from any folder.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()
let fixturesRoot = packageRoot.appendingPathComponent("Tests/GenerateKitTests/Fixtures")

/// A throwaway copy of a fixture project that a test may edit freely.
struct TemporaryProject {
  let root: URL

  init(copying fixture: String = "mini") throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent("generate-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: root.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: fixturesRoot.appendingPathComponent(fixture), to: root)
  }

  var config: String { root.appendingPathComponent("site.yml").path }
  var output: String { root.appendingPathComponent("site").path }

  func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

  func write(_ relative: String, _ text: String) throws {
    try Data(text.utf8).write(to: root.appendingPathComponent(relative))
  }

  func read(_ relative: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
  }

  func options(output: String? = nil) -> BuildOptions {
    var options = BuildOptions()
    options.configPath = config
    options.outputPath = output ?? self.output
    return options
  }

  func build(baseURL: String? = nil) throws -> BuildSummary {
    var options = options()
    options.baseURL = baseURL
    return try SiteBuilder(options: options, log: { _ in }).build()
  }

  /// Every file under the output with its bytes, for byte-for-byte checks.
  func snapshot() throws -> [String: Data] {
    try snapshotFolder(output)
  }

  func remove() { try? FileManager.default.removeItem(at: root) }
}

func snapshotFolder(_ folder: String) throws -> [String: Data] {
  var files: [String: Data] = [:]
  let base = URL(fileURLWithPath: folder)
  for relative in FileManager.default.subpaths(atPath: folder) ?? [] {
    var isDirectory: ObjCBool = false
    let url = base.appendingPathComponent(relative)
    _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
    if !isDirectory.boolValue { files[relative] = try Data(contentsOf: url) }
  }
  return files
}

/// Text with a `1️⃣` where an error must point; yields the text without the
/// marker and the marker's 1-based line and column (in Unicode scalars).
struct Marked {
  var text: String
  var line: Int
  var column: Int

  init(_ source: String, marker: String = "1️⃣") {
    guard let range = source.range(of: marker) else {
      self.text = source
      self.line = 0
      self.column = 0
      return
    }
    let before = source[..<range.lowerBound]
    let lines = before.split(separator: "\n", omittingEmptySubsequences: false)
    self.line = lines.count
    self.column = (lines.last.map { $0.unicodeScalars.count } ?? 0) + 1
    self.text = source.replacingCharacters(in: range, with: "")
  }
}

/// Builds and expects failure; returns the diagnostics.
func expectBuildFailure(
  _ project: TemporaryProject, sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> [Diagnostic] {
  do {
    _ = try project.build()
    Issue.record("the build was expected to fail", sourceLocation: sourceLocation)
    return []
  } catch let error as DiagnosticsError {
    return error.diagnostics
  } catch {
    Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
    return []
  }
}

/// Runs a program to the end: its status, its standard output as bytes, and
/// both output streams as text (stdout then stderr).
func runProcess(_ executable: String, _ arguments: [String], in folder: URL? = nil) throws -> (
  status: Int32, stdout: [UInt8], output: String, err: String
) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  if let folder { process.currentDirectoryURL = folder }
  let stdout = Pipe()
  let stderr = Pipe()
  process.standardOutput = stdout
  process.standardError = stderr
  try process.run()
  let out = stdout.fileHandleForReading.readDataToEndOfFile()
  let err = stderr.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  let errText = String(decoding: err, as: UTF8.self)
  return (process.terminationStatus, [UInt8](out), String(decoding: out, as: UTF8.self) + errText, errText)
}

/// The documents the pipeline prepares from the config at `path` (its first
/// two steps), for tests of the steps after them.
func preparedSite(config path: String) throws -> PreparedSite {
  let config = try ConfigLoader().load(path: path)
  return try DocumentBuilder().prepare(config, dataset: try DatasetLoader().load(config), baseURL: "/")
}
