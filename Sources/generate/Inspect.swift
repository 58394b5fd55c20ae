import ArgumentParser
import Foundation
import GenerateKit

struct Inspect: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Show what is in data files: columns, types, counts, samples, and what init would infer."
  )

  @Argument(help: "The data files (CSV, JSON, JSON Lines, SQLite).")
  var files: [String]

  func validate() throws {
    guard !files.isEmpty else { throw ValidationError("give one or more data files") }
  }

  func run() throws {
    do {
      for line in try Inspector().report(files) { print(line) }
    } catch let error as DiagnosticsError {
      throw StandardError.failure(error.diagnostics)
    }
  }
}
