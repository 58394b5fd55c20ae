import ArgumentParser
import GenerateKit

/// `--config`, the same for `build` and `preview`. Their `--output` and
/// `--base-url` differ in default and help, so each command keeps its own.
struct ConfigOption: ParsableArguments {
  @Option(
    name: .long,
    help: "The site configuration file: site.yml in this folder if there is one, else Data/site.yml.")
  var config = BuildOptions.defaultConfigPath()
}
