import Foundation
import PackagePlugin

/// Embeds the package's `Templates/` folder into the target as Swift source
/// (`enum EmbeddedTheme`), so the built-in theme travels with the binary.
/// Every file is an input: editing a template rebuilds the embedded copy.
@main
struct EmbedTheme: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
    let templates = context.package.directoryURL.appendingPathComponent("Templates")
    let output = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedTheme.swift")
    var inputs: [URL] = []
    let fileManager = FileManager.default
    if let enumerator = fileManager.enumerator(
      at: templates, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])
    {
      for case let url as URL in enumerator {
        let isDirectory = (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) ?? false
        if !isDirectory { inputs.append(url) }
      }
    }
    inputs.sort { $0.path < $1.path }
    return [
      .buildCommand(
        displayName: "Embedding the built-in theme (\(inputs.count) files)",
        executable: try context.tool(named: "ThemeEmbedder").url,
        arguments: [templates.path, output.path],
        inputFiles: inputs,
        outputFiles: [output])
    ]
  }
}
