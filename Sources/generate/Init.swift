import ArgumentParser
import Foundation
import GenerateKit

struct Init: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Write a site config for your data: keys, references, titles, facets and popularity.",
    discussion: """
      Reads CSV, JSON, JSON Lines and SQLite files (every table of a database), or a PostgreSQL \
      database (postgres://user@host:port/db, the password in PGPASSWORD), and writes an \
      ordinary, commented config that builds a site with the built-in theme. Data paths in it \
      are relative to the config's folder.
      """
  )

  @Argument(help: "The data files, or postgres:// URLs.")
  var files: [String]

  @Option(name: .long, help: "Where to write the config.")
  var config = "site.yml"

  @Flag(name: .long, help: "Replace an existing config.")
  var force = false

  func validate() throws {
    guard !files.isEmpty else {
      throw ValidationError("give one or more data files, e.g. generate init data/*.csv")
    }
  }

  func run() throws {
    var initializer = SiteInitializer(files: files)
    initializer.configPath = config
    initializer.force = force
    do {
      let result = try initializer.run()
      if !result.warnings.isEmpty { StandardError.write(DiagnosticPrinter().lines(for: result.warnings)) }
      let plan = result.plan
      print(
        "Wrote \(config): \(DiagnosticPrinter.count(plan.collections.count, "collection")) from "
          + "\(DiagnosticPrinter.count(plan.schema.tables.count, "table"))")
      for line in result.summary { print(line) }
      print("Build the site with:  generate --config \(config)")
    } catch let error as DiagnosticsError {
      throw StandardError.failure(error.diagnostics, closing: "generate: no config was written")
    }
  }
}
