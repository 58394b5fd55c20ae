import Foundation
import Mustache

/// The templates folder: Mustache templates registered by file name (so
/// `partials/head.mustache` is `{{> head}}`), plus the static assets.
public struct TemplateSet: @unchecked Sendable {
  public var directory: String
  var library: MustacheLibrary
  var names: Set<String>
  /// Files under `assets/`: relative path → bytes, and the file each came
  /// from (folders are layered, so not always the first folder's). `*.mustache`
  /// assets are rendered with the site context and lose the extension.
  var assets: [AssetFile]

  public static func load(directory: String) throws -> TemplateSet {
    try load(directories: [directory])
  }

  /// Loads several folders; the first folder that has a name wins.
  public static func load(directories: [String]) throws -> TemplateSet {
    let fileManager = FileManager.default
    var diagnostics: [Diagnostic] = []
    var library = MustacheLibrary()
    var names: [String: String] = [:]
    var sources: [(name: String, file: String, text: String)] = []
    var assets: [AssetFile] = []
    var assetPaths = Set<String>()
    let shown = directories.map(DatasetLoader.displayPath).joined(separator: ", ")
    for directory in directories {
      var isDirectory: ObjCBool = false
      guard fileManager.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
        diagnostics.append(.error(at: SourceLocation(file: DatasetLoader.displayPath(directory)), "templates folder does not exist"))
        continue
      }
      var namesHere: [String: String] = [:]
      let root = URL(fileURLWithPath: directory).standardizedFileURL
      let paths = (fileManager.subpaths(atPath: root.path) ?? []).sorted()
      for relative in paths {
        let url = root.appendingPathComponent(relative)
        var isFolder: ObjCBool = false
        guard fileManager.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
        let file = DatasetLoader.displayPath(url.path)
        guard let data = fileManager.contents(atPath: url.path) else {
          diagnostics.append(.error(at: SourceLocation(file: file), "cannot read template file"))
          continue
        }
        if relative.hasPrefix("assets/") {
          let path = String(relative.dropFirst("assets/".count))
          if assetPaths.insert(path).inserted { assets.append(AssetFile(path: path, bytes: [UInt8](data), source: file)) }
          continue
        }
        guard relative.hasSuffix(".mustache") else { continue }
        guard let text = String(validating: data, as: UTF8.self) else {
          diagnostics.append(.error(at: UTF8Check.firstInvalidByte(in: [UInt8](data), file: file), "template is not valid UTF-8"))
          continue
        }
        let name = url.deletingPathExtension().lastPathComponent
        if let first = namesHere[name] {
          diagnostics.append(.error(at: SourceLocation(file: file), "two templates are named '\(name)' (the other is \(first)); partials are found by file name"))
          continue
        }
        namesHere[name] = file
        // An earlier folder already has this name: it overrides this one.
        if names[name] != nil { continue }
        names[name] = file
        sources.append((name, file, text))
        do {
          library.register(try MustacheTemplate(string: text), named: name)
        } catch let error as MustacheTemplate.ParserError {
          diagnostics.append(.error(
            at: SourceLocation(file: file, line: error.context.lineNumber, column: error.context.columnNumber),
            "template syntax: \(Self.describe(error.error))"))
        } catch {
          diagnostics.append(.error(at: SourceLocation(file: file), "template syntax: \(error)"))
        }
      }
    }
    for source in sources {
      for reference in Self.partialReferences(in: source.text) where names[reference.name] == nil {
        diagnostics.append(.error(
          at: SourceLocation(file: source.file, line: reference.line, column: reference.column),
          "partial '\(reference.name)' does not exist (no \(reference.name).mustache in \(shown))"))
      }
    }
    if !diagnostics.isEmpty { throw DiagnosticsError(diagnostics) }
    return TemplateSet(directory: directories.first ?? "", library: library, names: Set(names.keys), assets: assets)
  }

  func has(_ name: String) -> Bool { names.contains(name) }

  func render(_ name: String, _ context: Any) -> String? {
    library.render(context, withTemplate: name)
  }

  static func describe(_ error: Error) -> String {
    switch error {
    case MustacheTemplate.Error.sectionCloseNameIncorrect: return "section closed with a different name than it was opened with"
    case MustacheTemplate.Error.unfinishedName: return "unfinished tag name"
    case MustacheTemplate.Error.expectedSectionEnd: return "section is never closed"
    case MustacheTemplate.Error.invalidSetDelimiter: return "invalid set-delimiter tag"
    default: return "\(error)"
    }
  }

  /// `{{> name}}` and `{{< name}}` tags with their 1-based positions.
  static func partialReferences(in text: String) -> [(name: String, line: Int, column: Int)] {
    var result: [(name: String, line: Int, column: Int)] = []
    let scalars = Array(text.unicodeScalars)
    var line = 1
    var column = 1
    var index = 0
    while index < scalars.count {
      if scalars[index] == "{" && index + 2 < scalars.count && scalars[index + 1] == "{"
        && (scalars[index + 2] == ">" || scalars[index + 2] == "<")
      {
        var cursor = index + 3
        while cursor < scalars.count && scalars[cursor] == " " { cursor += 1 }
        var name = String.UnicodeScalarView()
        while cursor < scalars.count && scalars[cursor] != "}" && scalars[cursor] != " " {
          name.append(scalars[cursor])
          cursor += 1
        }
        if !name.isEmpty { result.append((String(name), line, column)) }
      }
      if scalars[index] == "\n" {
        line += 1
        column = 1
      } else {
        column += 1
      }
      index += 1
    }
    return result
  }
}
