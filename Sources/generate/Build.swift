import ArgumentParser
import GenerateKit

struct Build: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Build the site (the default command)."
  )

  func run() throws {
    print("not yet")
  }
}
