import ArgumentParser
import GenerateKit

@main
struct Generate: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "generate",
    abstract: "Build a static search site from a dataset and Mustache templates.",
    subcommands: [Build.self, Preview.self, Init.self, Inspect.self],
    defaultSubcommand: Build.self
  )
}
