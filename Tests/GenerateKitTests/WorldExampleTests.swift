import Foundation
import Testing

/// `Data/world` is the example of a site nobody configured by hand: its
/// `site.yml` is exactly what `generate init countries.csv` writes, and it
/// builds with no warning. If init's inference changes, regenerate it
/// (`cd Data/world && generate init --force countries.csv`) and look at the
/// judged queries in `Tests/relevance/judged-world.json` again.
@Suite struct WorldExampleTests {
  static var executable: String { BadInputSuite.executable }

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: executable)))
  func theExampleConfigIsWhatInitWrites() throws {
    let folder = try emptyFolder("world")
    defer { try? FileManager.default.removeItem(at: folder) }
    let world = packageRoot.appendingPathComponent("Data/world")
    try FileManager.default.copyItem(
      at: world.appendingPathComponent("countries.csv"), to: folder.appendingPathComponent("countries.csv"))
    let result = try runProcess(Self.executable, ["init", "countries.csv"], in: folder)
    #expect(result.status == 0, "\(result.err)")
    let written = try String(contentsOf: folder.appendingPathComponent("site.yml"), encoding: .utf8)
    let kept = try String(contentsOf: world.appendingPathComponent("site.yml"), encoding: .utf8)
    #expect(written == kept, "\(GoldenSiteTests.diff(Data(kept.utf8), Data(written.utf8)))")

    // No --config: the site.yml init wrote in this folder is the one read.
    let build = try runProcess(Self.executable, ["--output", "site", "--strict", "-q"], in: folder)
    #expect(build.status == 0, "\(build.err)")
    // A record with a Japanese title and a text key has a readable page.
    let page = try String(
      contentsOf: folder.appendingPathComponent("site/countries/jp/index.html"), encoding: .utf8)
    #expect(page.contains("日本"))
  }
}

/// Codes (`L`, `E`…) become a facet with a `labels:` map to fill in, and
/// the subtitle reads each code through it; once filled in, tokens and
/// subtitles say "Living".
@Suite struct InitCodedValuesTests {
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: BadInputSuite.executable)))
  func codesGetALabelsMapToFillIn() throws {
    let folder = try emptyFolder("codes")
    defer { try? FileManager.default.removeItem(at: folder) }
    var csv = "code,name,type\n"
    let types = ["L", "L", "E", "L", "A", "L", "C", "L", "E", "L", "H", "L"]
    for index in 0..<36 { csv += "x\(index),Language \(index),\(types[index % types.count])\n" }
    try Data(csv.utf8).write(to: folder.appendingPathComponent("languages.csv"))
    let initResult = try runProcess(BadInputSuite.executable, ["init", "languages.csv"], in: folder)
    #expect(initResult.status == 0, "\(initResult.err)")
    var config = try String(contentsOf: folder.appendingPathComponent("site.yml"), encoding: .utf8)
    #expect(config.contains("labels: type }"), "\(config)")
    #expect(
      config.contains("  type: { \"A\": \"A\", \"C\": \"C\", \"E\": \"E\", \"H\": \"H\", \"L\": \"L\" }"),
      "\(config)")
    #expect(config.contains("label(type, 'type')"), "\(config)")

    config = config.replacingOccurrences(of: "\"L\": \"L\"", with: "\"L\": \"Living\"")
    try Data(config.utf8).write(to: folder.appendingPathComponent("site.yml"))
    let build = try runProcess(
      BadInputSuite.executable, ["--config", "site.yml", "--output", "site", "--strict", "-q"], in: folder)
    #expect(build.status == 0, "\(build.err)")
    let page = try String(
      contentsOf: folder.appendingPathComponent("site/languages/x0/index.html"), encoding: .utf8)
    #expect(page.contains("Living"))
  }
}

/// A new empty folder under the temporary directory, for a test to fill.
func emptyFolder(_ name: String) throws -> URL {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  return folder
}
