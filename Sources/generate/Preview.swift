import ArgumentParser
import Foundation
import GenerateKit

struct Preview: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Serve the site on this machine, rebuild it when its inputs change and reload the page.",
    discussion: """
      Watches Data/, Templates/ and the config file (and the config's folder). Preview builds carry \
      a live-reload script, so they go to their own folder, never to site/. The site is built and \
      served at / unless --base-url gives a path.
      """
  )

  @Option(help: "The site configuration.")
  var config = "Data/site.yml"

  @Option(help: "Where preview builds are written (not site/).")
  var output = ".build/preview-site"

  @Option(name: .customLong("base-url"), help: "Build and serve the site under this path, e.g. /music/.")
  var baseURL: String?

  @Option(help: "The address to listen on; preview is for local use.")
  var host = "127.0.0.1"

  @Option(help: "The port to listen on (0 picks a free one).")
  var port = 8000

  func validate() throws {
    guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
  }

  func run() async throws {
    // Only the path of a base URL: links must stay on the preview server.
    let basePath = PreviewServer.basePath(from: baseURL ?? "/")
    var options = BuildOptions()
    options.configPath = config
    options.outputPath = output
    options.baseURL = basePath
    options.previewScript = PreviewServer.reloadScript
    let builder = SiteBuilder(options: options)

    var server = PreviewServer.Configuration(siteFolder: output)
    server.basePath = basePath
    server.host = host
    server.port = port
    server.watchedPaths = ["Data", "Templates", config]
    let configFolder = NSString(string: config).deletingLastPathComponent
    if !["", ".", "Data"].contains(configFolder) { server.watchedPaths.append(configFolder) }

    do {
      try await PreviewServer(configuration: server) { _ = try builder.build() }.run()
    } catch let error as PreviewError {
      PreviewServer.printToStandardError("error: \(error)")
      throw ExitCode.failure
    }
  }
}
