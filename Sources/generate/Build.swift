import ArgumentParser
import Foundation
import GenerateKit

struct Build: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Build the site (the default command)."
  )

  @OptionGroup var site: ConfigOption

  @Option(name: .long, help: "The folder to publish the site to; replaced atomically, only on success.")
  var output = "site"

  @Option(name: .customLong("base-url"), help: "Serve the site under this path, e.g. /music/.")
  var baseURL: String?

  @Flag(
    name: .long,
    help:
      "Build everything: ignore the build record, and remove every staging folder left beside the output (even those of running builds) and the kept previous site."
  )
  var clean = false

  @Flag(name: .long, help: "Replace an output folder that holds files generate did not write.")
  var force = false

  @Flag(name: .long, help: "Fail the build on warnings too (for CI).")
  var strict = false

  @Flag(name: .shortAndLong, help: "Print only errors and warnings.")
  var quiet = false

  @Flag(name: .shortAndLong, help: "Also print record, table and index counts.")
  var verbose = false

  func run() throws {
    var options = BuildOptions()
    options.configPath = site.config
    options.outputPath = output
    options.baseURL = baseURL
    options.clean = clean
    options.force = force
    options.strict = strict
    let quiet = self.quiet
    // Written at once, not buffered, so a long build piped to a log says which step it is in.
    var builder = SiteBuilder(options: options) { line in
      if !quiet { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
    }
    builder.verbose = verbose
    do {
      let summary = try builder.build()
      if !summary.warnings.isEmpty { StandardError.write(DiagnosticPrinter().lines(for: summary.warnings)) }
      // An up-to-date site was said so by the build's own line ("Up to date: …").
      if !quiet && !summary.upToDate {
        let warnings =
          summary.warnings.isEmpty
          ? "" : " with \(DiagnosticPrinter.count(summary.warnings.count, "warning"))"
        print(
          String(
            format: "Built %d pages from %d records into %@/ (index %.1f KiB) in %.2f s%@",
            summary.pages, summary.records, output, Double(summary.indexBytes) / 1024, summary.seconds,
            warnings))
        // The header a host must send, which a theme edit changes (the inline stylesheet's hash).
        print("Content-Security-Policy (also in \(output)/_headers): \(summary.contentSecurityPolicy)")
      }
    } catch let error as DiagnosticsError {
      throw StandardError.failure(
        error.diagnostics, closing: DiagnosticPrinter().summary(for: error, output: output))
    }
  }
}
