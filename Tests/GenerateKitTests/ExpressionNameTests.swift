import Foundation
import Testing

@testable import GenerateKit

/// Column names in any script, and in backquotes for any other name.
@Suite struct ExpressionNameTests {
  @Test func namesInAnyScriptParse() throws {
    #expect(try ExpressionParser.parse("名前") == .path(["名前"], column: 0))
    #expect(try ExpressionParser.parse("année + 1") == .binary("+", .path(["année"], column: 0), .number(1)))
    #expect(
      try ExpressionParser.parse("count(पुस्तक)") == .call("count", [.path(["पुस्तक"], column: 6)], column: 0))
    #expect(try ExpressionParser.parse("`release date`") == .path(["release date"], column: 0))
    #expect(try ExpressionParser.parse("artist.`full name`") == .path(["artist", "full name"], column: 0))
  }

  @Test func aNameThatCannotBeReadSaysHowToQuoteIt() {
    #expect(throws: ExpressionParser.Failure.self) { try ExpressionParser.parse("`unclosed") }
    do {
      _ = try ExpressionParser.parse("count(#tag)")
      Issue.record("parsed")
    } catch {
      #expect(error.offset == 6)
      #expect(error.message.contains("in backquotes"))
    }
  }

  /// A config that names a non-Latin column and a column with a space
  /// builds, and the values reach the page.
  @Test func aSiteBuildsFromColumnsNamedInOtherScripts() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    try project.write(
      "data/genres.csv", "id,名前,long name\n1,ロック,Rock music\n2,ポップ,Pop music\n3,MPB,Música popular\n")
    var config = try project.read("site.yml")
    config = config.replacingOccurrences(of: "genre: genre_id.name", with: "genre: genre_id.名前")
    config = config.replacingOccurrences(
      of: "genre: distinct(tracks.genre_id.name)", with: "genre: distinct(tracks.genre_id.`long name`)")
    config = config.replacingOccurrences(
      of: "genre: distinct(albums.tracks.genre_id.name)", with: "genre: distinct(albums.tracks.genre_id.名前)")
    try project.write("site.yml", config)
    _ = try project.build()
    let facetFiles = try FileManager.default.contentsOfDirectory(atPath: project.path("site/idx"))
    let manifest = try facetFiles.filter { $0.hasPrefix("manifest") }.map {
      try project.read("site/idx/\($0)")
    }
    #expect(manifest.joined().contains("ロック"))
    #expect(manifest.joined().contains("Rock music"))
  }

  @Test func negativeDurationsKeepTheirSignInFront() {
    #expect(ExpressionEvaluator.duration(-5000) == "-0:05")
    #expect(ExpressionEvaluator.duration(-3_720_000) == "-1 hr 2 min")
    #expect(ExpressionEvaluator.duration(-400) == "0:00")
  }
}

/// Folders are compared by what they are, not only by how they are named.
@Suite struct OutputFolderIdentityTests {
  @Test func aFolderContainsItselfUnderAnotherNameAndItsSubfolders() throws {
    let project = try TemporaryProject()
    defer { project.remove() }
    try FileManager.default.createSymbolicLink(
      atPath: project.path("alias"), withDestinationPath: "templates")
    #expect(OutputFolder.contains(project.path("templates"), project.path("alias")))
    #expect(OutputFolder.contains(project.path("templates"), project.path("alias/partials")))
    #expect(!OutputFolder.contains(project.path("templates"), project.path("data")))
    #expect(!OutputFolder.contains(project.path("temp"), project.path("templates")))
  }
}
