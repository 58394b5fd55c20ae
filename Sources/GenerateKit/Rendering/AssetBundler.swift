import Foundation

/// One file under a templates folder's `assets/`, rendered if it was a
/// Mustache template; `source` is the file it came from, for diagnostics.
struct AssetFile {
  var path: String
  var bytes: [UInt8]
  var source: String
}

/// Makes every request the first answer needs discoverable from the page's
/// HTML at once: a stylesheet that `@import`s others becomes one file, and a
/// script that imports modules becomes one file too when Debian's `esbuild`
/// is installed (it bundles and minifies; a well-kept tool does that job, not
/// this file). Without esbuild the modules ship as they are and the page
/// preloads all of them (`modulePreloads`), so the browser still asks for
/// every module in one round trip instead of discovering them import by
/// import. A file that imports nothing is only minified: by esbuild when it is
/// a module some script imports on demand, by `AssetMinifier` otherwise.
struct AssetBundler {
  struct Output {
    var files: [(path: String, bytes: [UInt8])]
    /// Asset paths of the modules the entry scripts import (only when not
    /// bundled), dependencies first.
    var modulePreloads: [String]
  }

  /// The esbuild executable, or nil to ship modules unbundled.
  var esbuild: String?

  /// `$GENERATE_ESBUILD` (a path, or `none`), else `esbuild` on the `PATH`.
  /// Says once per process when it is missing, since the site still builds.
  static func locateEsbuild() -> String? {
    let environment = ProcessInfo.processInfo.environment
    if let chosen = environment["GENERATE_ESBUILD"] {
      return chosen.isEmpty || chosen == "none" ? nil : chosen
    }
    for folder in (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
      let candidate = "\(folder)/esbuild"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    _ = missingNote
    return nil
  }

  /// A lazily initialised static runs once, safely across threads.
  private static let missingNote: Void = {
    FileHandle.standardError.write(
      Data(
        "note: esbuild not found: scripts ship as separate modules, all preloaded (install esbuild to bundle and minify them)\n"
          .utf8))
  }()

  func bundle(_ assets: [AssetFile]) throws -> Output {
    let byPath = Dictionary(assets.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    var imports: [String: [String]] = [:]
    for asset in assets {
      let found =
        Self.isScript(asset.path)
        ? Self.scriptImports(asset.bytes) : Self.isStyle(asset.path) ? Self.styleImports(asset.bytes) : []
      imports[asset.path] = found.compactMap { Self.resolve($0, from: asset.path) }.filter {
        byPath[$0] != nil
      }
    }
    let imported = Set(imports.values.joined())
    // Entries: files nothing imports that import something themselves.
    let entries = assets.map(\.path).filter { !imported.contains($0) && !(imports[$0] ?? []).isEmpty }
    // Modules a script imports on demand by a quoted path (`new URL('./ui/filters.js', …)`) that
    // import nothing themselves: esbuild minifies them as it does the bundles, 10–20 % smaller
    // gzip than AssetMinifier (engine/typo.js 1,522 → 1,217 B, ui/tophit.js 2,041 → 1,842). Only
    // those: a classic script's top-level names are globals that minifying a module renames.
    let named = Set(
      assets.filter { Self.isScript($0.path) }.flatMap { asset in
        Self.quotedRelativeScripts(asset.bytes).compactMap { Self.resolve($0, from: asset.path) }
      })
    let onDemand = assets.map(\.path).filter {
      Self.isScript($0) && named.contains($0) && !imported.contains($0) && (imports[$0] ?? []).isEmpty
    }

    var bundled: [String: [UInt8]] = [:]
    if let esbuild, !entries.isEmpty || !onDemand.isEmpty {
      bundled = try runEsbuild(esbuild, assets: assets, entries: entries + onDemand)
    } else {
      for entry in entries where Self.isStyle(entry) {
        var seen = Set<String>()
        bundled[entry] = AssetMinifier.minify(
          Self.inlineStyle(entry, byPath: byPath, imports: imports, seen: &seen), path: entry)
      }
    }
    var preloads: [String] = []
    if esbuild == nil || entries.isEmpty {
      var seen = Set<String>()
      func visit(_ path: String) {
        for dependency in imports[path] ?? [] where seen.insert(dependency).inserted {
          visit(dependency)
          preloads.append(dependency)
        }
      }
      for entry in entries where Self.isScript(entry) { visit(entry) }
    }
    let files = assets.map { asset in
      (path: asset.path, bytes: bundled[asset.path] ?? AssetMinifier.minify(asset.bytes, path: asset.path))
    }
    return Output(files: files, modulePreloads: preloads)
  }

  static func isScript(_ path: String) -> Bool { path.hasSuffix(".js") || path.hasSuffix(".mjs") }
  static func isStyle(_ path: String) -> Bool { path.hasSuffix(".css") }

  /// Relative specifiers of static `import … from './x.js'`, `import './x.js'`
  /// and `export … from './x.js'` lines (the form these modules are written in).
  static func scriptImports(_ bytes: [UInt8]) -> [String] {
    let text = String(decoding: bytes, as: UTF8.self)
    var found: [String] = []
    var statement = ""
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      if statement.isEmpty
        && !(trimmed.hasPrefix("import") || trimmed.hasPrefix("export {") || trimmed.hasPrefix("export *"))
      {
        continue
      }
      statement += trimmed + " "
      if let specifier = lastQuoted(statement) {
        if specifier.hasPrefix("./") || specifier.hasPrefix("../") { found.append(specifier) }
        statement = ""
      } else if !(statement.hasPrefix("import {") || statement.hasPrefix("export {"))
        || statement.contains("}")
      {
        // Not a static import, or braces closed without a `from`: only a list of names spans lines.
        statement = ""
      }
    }
    return found
  }

  /// `@import "x.css";` and `@import url(x.css);` rules at the top of a stylesheet.
  static func styleImports(_ bytes: [UInt8]) -> [String] {
    let text = String(decoding: bytes, as: UTF8.self)
    var found: [String] = []
    for line in text.split(separator: "\n") {
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      guard trimmed.hasPrefix("@import") else { continue }
      var rest = trimmed.dropFirst("@import".count).drop { $0 == " " }
      if rest.hasPrefix("url(") { rest = rest.dropFirst(4) }
      guard let quote = rest.first else { continue }
      let body = quote == "\"" || quote == "'" ? rest.dropFirst() : rest
      let name = body.prefix { $0 != "\"" && $0 != "'" && $0 != ")" && $0 != ";" && $0 != " " }
      if !name.isEmpty && !name.contains(":") && !name.hasPrefix("/") { found.append(String(name)) }
    }
    return found
  }

  private static func lastQuoted(_ statement: String) -> String? {
    guard statement.contains(" from ") || statement.hasPrefix("import '") || statement.hasPrefix("import \"")
    else { return nil }
    guard let close = statement.lastIndex(where: { $0 == "'" || $0 == "\"" }) else { return nil }
    let quote = statement[close]
    guard let open = statement[..<close].lastIndex(of: quote) else { return nil }
    return String(statement[statement.index(after: open)..<close])
  }

  /// The scripts `named` and, one after another, every asset script they
  /// name by a quoted relative path (`'./ui/filters.js'`): modules a page
  /// imports on demand, which esbuild leaves out of the bundle and the HTML
  /// does not name. The offline worker keeps them at install, so a scope or
  /// a typo works offline before it was ever used online.
  static func withModulesNamedInside(_ named: [String], among files: [(path: String, bytes: [UInt8])])
    -> [String]
  {
    let bytesOf = Dictionary(files.map { ($0.path, $0.bytes) }, uniquingKeysWith: { first, _ in first })
    var found = named
    var seen = Set(named)
    var next = 0
    while next < found.count {
      let path = found[next]
      next += 1
      guard isScript(path), let bytes = bytesOf[path] else { continue }
      for specifier in quotedRelativeScripts(bytes) {
        if let module = resolve(specifier, from: path), bytesOf[module] != nil, seen.insert(module).inserted {
          found.append(module)
        }
      }
    }
    return found
  }

  /// Every `'./x.js'`, `"../y.js"` or `` `./z.mjs` `` string in a script.
  static func quotedRelativeScripts(_ bytes: [UInt8]) -> [String] {
    var found: [String] = []
    var index = 0
    while index < bytes.count {
      let quote = bytes[index]
      index += 1
      guard quote == UInt8(ascii: "'") || quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "`"),
        index < bytes.count, bytes[index] == UInt8(ascii: ".")
      else { continue }
      var end = index
      while end < bytes.count, end - index < 200, bytes[end] != quote, bytes[end] != UInt8(ascii: "\n") {
        end += 1
      }
      guard end < bytes.count, bytes[end] == quote else { continue }
      let text = String(decoding: bytes[index..<end], as: UTF8.self)
      if (text.hasPrefix("./") || text.hasPrefix("../")) && isScript(text) { found.append(text) }
      index = end + 1
    }
    return found
  }

  /// An import's asset path, relative to the importing file's folder.
  static func resolve(_ specifier: String, from path: String) -> String? {
    var parts = path.split(separator: "/").dropLast().map(String.init)
    for part in specifier.split(separator: "/") {
      switch part {
      case ".": continue
      case "..":
        guard !parts.isEmpty else { return nil }
        parts.removeLast()
      default: parts.append(String(part))
      }
    }
    return parts.joined(separator: "/")
  }

  /// A stylesheet with its `@import` rules replaced by the files they name.
  static func inlineStyle(
    _ path: String, byPath: [String: AssetFile], imports: [String: [String]], seen: inout Set<String>
  ) -> [UInt8] {
    guard seen.insert(path).inserted, let asset = byPath[path] else { return [] }
    var output: [UInt8] = []
    let text = String(decoding: asset.bytes, as: UTF8.self)
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      if trimmed.hasPrefix("@import"), let name = styleImports(Array(trimmed.utf8)).first,
        let target = resolve(name, from: path), byPath[target] != nil
      {
        output += inlineStyle(target, byPath: byPath, imports: imports, seen: &seen)
        continue
      }
      output += Array(line.utf8) + [UInt8(ascii: "\n")]
    }
    return output
  }

  /// Bundles and minifies the entries with esbuild in a scratch folder; its
  /// errors come back naming the template file they are in.
  private func runEsbuild(_ esbuild: String, assets: [AssetFile], entries: [String]) throws -> [String:
    [UInt8]]
  {
    let fileManager = FileManager.default
    let scratch = fileManager.temporaryDirectory.appendingPathComponent(
      "generate-assets-\(UUID().uuidString)")
    defer { try? fileManager.removeItem(at: scratch) }
    let source = scratch.appendingPathComponent("src")
    let output = scratch.appendingPathComponent("out")
    for asset in assets {
      let url = source.appendingPathComponent(asset.path)
      try fileManager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(asset.bytes).write(to: url)
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: esbuild)
    process.currentDirectoryURL = source
    process.arguments =
      entries + [
        "--bundle", "--minify", "--format=esm", "--charset=utf8", "--legal-comments=none",
        "--outdir=\(output.path)", "--outbase=.", "--log-level=error", "--color=false",
        // Images and fonts a stylesheet names stay where they are.
        "--external:*.svg", "--external:*.png", "--external:*.jpg", "--external:*.webp", "--external:*.woff2",
      ]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      throw DiagnosticsError(
        .error(at: SourceLocation(file: esbuild), "cannot run esbuild: \(error.localizedDescription)"))
    }
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw DiagnosticsError(Self.diagnostics(fromEsbuild: message, assets: assets))
    }
    var result: [String: [UInt8]] = [:]
    for entry in entries {
      guard let data = fileManager.contents(atPath: output.appendingPathComponent(entry).path) else {
        throw DiagnosticsError(
          .error(at: SourceLocation(file: entry), "esbuild wrote no bundle for this file"))
      }
      // esbuild leaves the spaces of custom properties' values and media features.
      result[entry] =
        Self.isStyle(entry)
        ? Array(AssetMinifier.tightCSS(String(decoding: data, as: UTF8.self)).utf8) : [UInt8](data)
    }
    return result
  }

  /// esbuild reports `✘ [ERROR] message` and then `    path:line:column:`.
  static func diagnostics(fromEsbuild text: String, assets: [AssetFile]) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    var message: String?
    for line in text.split(separator: "\n") {
      if let range = line.range(of: "[ERROR] ") {
        if let message { diagnostics.append(.error(at: nil, "esbuild: \(message)")) }
        message = String(line[range.upperBound...])
        continue
      }
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      let parts = trimmed.split(separator: ":")
      if let pending = message, trimmed.hasSuffix(":"), parts.count == 3, let lineNumber = Int(parts[1]),
        let column = Int(parts[2])
      {
        let path = String(parts[0])
        let file = assets.first { $0.path == path }?.source ?? path
        // esbuild counts columns from 0.
        diagnostics.append(
          .error(at: SourceLocation(file: file, line: lineNumber, column: column + 1), "esbuild: \(pending)"))
        message = nil
      }
    }
    if let message { diagnostics.append(.error(at: nil, "esbuild: \(message)")) }
    if diagnostics.isEmpty { diagnostics.append(.error(at: nil, "esbuild failed: \(text.prefix(500))")) }
    return diagnostics
  }
}
