import ArgumentParser
import Foundation
import GenerateKit

struct Preview: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Serve the site on this machine, rebuild it when its inputs change and reload the page.",
    discussion: """
      Watches the config file, its template folders and its data files. Preview builds \
      carry a live-reload script, so they go to their own folder, never to site/. The site is built \
      and served at / unless --base-url gives a path. Only requests for localhost, 127.x.x.x or \
      [::1] are answered, unless --host is an address other machines can reach.
      """
  )

  @OptionGroup var site: ConfigOption

  @Option(help: "Where preview builds are written (not site/).")
  var output = ".build/preview-site"

  @Option(name: .customLong("base-url"), help: "Build and serve the site under this path, e.g. /music/.")
  var baseURL: String?

  @Option(help: "The address to listen on (default 127.0.0.1); preview is for local use.")
  var host: String?

  @Option(help: "The port to listen on (0 picks a free one).")
  var port = 8000

  func validate() throws {
    guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
  }

  func run() async throws {
    // Only the path of a base URL: links must stay on the preview server.
    let basePath: BasePath
    do { basePath = try BasePath(baseURL ?? "/") } catch { throw ValidationError("--base-url: \(error)") }
    var options = BuildOptions()
    options.configPath = site.config
    options.outputPath = output
    options.baseURL = basePath.path
    options.previewScript = PreviewServer.reloadScript
    // Step lines through the same unbuffered writer as the server's own, or
    // with stdout on a pipe they arrive late and cut into its lines.
    let builder = SiteBuilder(options: options, log: PreviewServer.printToStandardOutput)

    var server = PreviewServer.Configuration(siteFolder: output)
    server.basePath = basePath
    server.host = host ?? "127.0.0.1"
    server.port = port
    let config = site.config
    server.watchedPaths = PreviewInputs.paths(forConfig: config)
    server.updatesWatchedPaths = { PreviewInputs.paths(forConfig: config) }

    // Loaded data, prepared documents, index and pages stay in memory
    // between builds, so each redoes only what an edit changed.
    let memory = BuildMemory()
    do {
      try await PreviewServer(configuration: server) { progress in
        // Open pages reload as soon as the site is checked, answered from
        // memory while it is written to the folder.
        // The pages open in a browser first: they reload before the rest
        // of the site is rendered, which a newer edit may cut short.
        let build = try builder.build(keeping: memory, reportingTo: progress)
        progress.contentSecurityPolicy(build.summary.contentSecurityPolicy)
        for line in DiagnosticPrinter().lines(for: build.summary.warnings) {
          PreviewServer.printToStandardError(line)
        }
        return build.changedFiles
      }.run()
    } catch let error as PreviewError {
      throw StandardError.failure(["error: \(error)"])
    }
  }
}
