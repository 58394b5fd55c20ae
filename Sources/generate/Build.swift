import ArgumentParser
import Foundation
import GenerateKit

struct Build: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Build the site (the default command)."
  )

  @Option(name: .long, help: "The site configuration file.")
  var config = "Data/site.yml"

  @Option(name: .long, help: "The folder to publish the site to.")
  var output = "site"

  @Option(name: .customLong("base-url"), help: "Serve the site under this path, e.g. /music/.")
  var baseURL: String?

  @Flag(name: .long, help: "Remove folders left by interrupted builds first.")
  var clean = false

  @Flag(name: .shortAndLong, help: "Print only errors.")
  var quiet = false

  @Flag(name: .shortAndLong, help: "Print every step's timing.")
  var verbose = false

  func run() throws {
    var options = BuildOptions()
    options.configPath = config
    options.outputPath = output
    options.baseURL = baseURL
    options.clean = clean
    let quiet = self.quiet
    var builder = SiteBuilder(options: options) { line in
      if !quiet { print(line) }
    }
    builder.verbose = verbose
    do {
      let summary = try builder.build()
      if !quiet {
        print(String(
          format: "Built %d pages from %d records into %@/ (index %.1f KiB) in %.2f s",
          summary.pages, summary.records, output, Double(summary.indexBytes) / 1024, summary.seconds))
      }
    } catch let error as DiagnosticsError {
      for diagnostic in error.diagnostics {
        FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8))
      }
      let step = error.step.map { " while \($0.lowercased())" } ?? ""
      let count = error.diagnostics.count
      FileHandle.standardError.write(Data("generate: \(count) error\(count == 1 ? "" : "s")\(step); \(output)/ was left unchanged\n".utf8))
      throw ExitCode.failure
    }
  }
}
