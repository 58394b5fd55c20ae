import Foundation
import Mustache
import Testing

@testable import GenerateKit

/// Every case of the Mustache specification's own files, when they are on
/// this machine: `MUSTACHE_SPEC_DIR` names the `specs/` folder of a
/// checkout of https://github.com/mustache/spec (its `.json` files). Each
/// case is rendered by `MustacheParser` + `CompiledRenderer` and by
/// swift-mustache, and the bytes must be the same — or both must refuse the
/// template. The files are not part of this repository (swift-mustache's
/// own spec tests download them; the build here has no network), so
/// without the variable this test is skipped; `MustacheSpecTests` and
/// `CompiledRendererSpecTests` hold the cases written out.
///
/// `~lambdas.json` is left out: its lambdas are code in other languages,
/// not data. Where swift-mustache itself writes something else than the
/// specification expects, the case still passes when the two renderers
/// agree (pages must come out as they did); the test lists those cases.
@Suite struct MustacheSpecFilesTests {
  static let folder: URL? = ProcessInfo.processInfo.environment["MUSTACHE_SPEC_DIR"].map {
    URL(fileURLWithPath: $0)
  }

  /// A spec file: its cases.
  struct SpecFile: Decodable {
    struct Test: Decodable {
      var name: String
      var data: JSONValue
      var template: String
      var partials: [String: String]?
      var expected: String
    }
    var tests: [Test]
  }

  /// JSON as the values a context holds: `Bool`, `Int`, `Double`, `String`,
  /// arrays, dictionaries, and nil for `null` (`NSNull`, as `JSONSerialization`
  /// would give; swift-mustache reads it as nothing).
  enum JSONValue: Decodable {
    case value(Any)

    init(from decoder: Decoder) throws {
      let container = try decoder.singleValueContainer()
      if container.decodeNil() {
        self = .value(NSNull())
      } else if let bool = try? container.decode(Bool.self) {
        self = .value(bool)
      } else if let int = try? container.decode(Int.self) {
        self = .value(int)
      } else if let double = try? container.decode(Double.self) {
        self = .value(double)
      } else if let string = try? container.decode(String.self) {
        self = .value(string)
      } else if let array = try? container.decode([JSONValue].self) {
        self = .value(array.map(\.any))
      } else {
        self = .value(try container.decode([String: JSONValue].self).mapValues(\.any))
      }
    }

    var any: Any {
      switch self {
      case .value(let value): value
      }
    }
  }

  @Test(
    .enabled(
      if: folder != nil,
      "set MUSTACHE_SPEC_DIR to the specs/ folder of a checkout of github.com/mustache/spec"))
  func everyCaseRendersAsSwiftMustacheRendersIt() throws {
    let folder = try #require(Self.folder)
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasSuffix(".json") && $0 != "~lambdas.json" }.sorted()
    #expect(!files.isEmpty, "no .json files in \(folder.path)")
    var count = 0
    var notAsSpecified: [String] = []
    for file in files {
      let spec = try JSONDecoder().decode(
        SpecFile.self, from: Data(contentsOf: folder.appendingPathComponent(file)))
      for test in spec.tests {
        count += 1
        let name = "\(file): \(test.name)"
        let specCase = MustacheSpecTests.Case(
          name: name, template: test.template, data: test.data.any, partials: test.partials ?? [:])
        let mustache = Result { try Self.mustache(specCase) }
        let ours = Result { try Self.ours(specCase) }
        switch (mustache, ours) {
        case (.success(let expected), .success(let rendered)):
          #expect(rendered == expected, "\(name)")
          if expected != test.expected { notAsSpecified.append(name) }
        case (.failure, .failure):
          notAsSpecified.append(name + " (both refuse the template)")
        case (.success, .failure(let error)):
          Issue.record("\(name): swift-mustache renders it, MustacheParser refuses it: \(error)")
        case (.failure(let error), .success):
          Issue.record("\(name): swift-mustache refuses it (\(error)), CompiledRenderer renders it")
        }
      }
    }
    print(
      "Mustache spec: \(count) cases in \(files.count) files; swift-mustache and CompiledRenderer differ from the spec's expected text, together, in \(notAsSpecified.count):"
    )
    for name in notAsSpecified { print("  " + name) }
  }

  static func mustache(_ spec: MustacheSpecTests.Case) throws -> String {
    var library = MustacheLibrary()
    for (name, text) in spec.partials { library.register(try MustacheTemplate(string: text), named: name) }
    return try MustacheTemplate(string: spec.template).render(spec.data, library: library)
  }

  static func ours(_ spec: MustacheSpecTests.Case) throws -> String {
    var templates: [String: CompiledTemplate] = [:]
    for (name, text) in spec.partials { templates[name] = try MustacheParser.parse(text) }
    var renderer = CompiledRenderer(templates: templates)
    return String(
      decoding: renderer.render(try MustacheParser.parse(spec.template), object: spec.data), as: UTF8.self)
  }
}
