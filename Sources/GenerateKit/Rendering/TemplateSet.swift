import Foundation

/// The templates: Mustache templates registered by file name (so
/// `partials/head.mustache` is `{{> head}}`), plus the static assets, from
/// the user's folders and then the built-in theme, which travels with the
/// binary (`EmbeddedTheme`, made from `Templates/` at build time).
public struct TemplateSet: @unchecked Sendable {
  /// The user's folders, in the order they are searched; the built-in theme
  /// comes after them unless it is turned off.
  public var directories: [String]
  public var builtIn = true
  public var directory: String { directories.first ?? "" }
  /// Every template, parsed (`MustacheParser`), by name.
  var compiled: [String: CompiledTemplate] = [:]
  /// The tags of each page template that read a value through the
  /// protocols, across every render of this set (`--verbose`).
  let genericReads = GenericReads()
  /// Page templates whose partials nested without end (`--verbose` aside:
  /// an error of the render).
  let endlessPartials = EndlessPartials()
  /// Dynamic partials whose value named no template (an error of the render).
  let missingPartials = MissingPartials()
  /// Tags that printed an object (an error of the render).
  let objectTags = ObjectTags()
  var names: Set<String>
  /// Each template's tags, for what a page's template and partials wrote.
  var tagsByName: [String: (file: String, tags: TemplateTags)] = [:]
  /// Each template's text, to tell which templates an edit changed.
  var textByName: [String: String] = [:]
  /// Files under `assets/`: relative path → bytes, and the file each came
  /// from (folders are layered, so not always the first folder's). `*.mustache`
  /// assets are rendered with the site context and lose the extension.
  var assets: [AssetFile]

  /// How messages name a file of the built-in theme.
  public static let builtInName = "<built-in theme>"

  /// One file of a layer: its path inside the layer, its bytes, and how
  /// messages name it.
  struct LayerFile {
    var relative: String
    var bytes: [UInt8]?
    var file: String
  }

  /// The built-in theme's files, as they were in `Templates/` when the
  /// binary was built.
  static var builtInFiles: [LayerFile] {
    var files = EmbeddedTheme.files.map {
      LayerFile(relative: $0.path, bytes: Array($0.text.utf8), file: "\(builtInName)/\($0.path)")
    }
    for file in EmbeddedTheme.binaryFiles {
      files.append(
        LayerFile(
          relative: file.path, bytes: Data(base64Encoded: file.base64).map { [UInt8]($0) },
          file: "\(builtInName)/\(file.path)"))
    }
    return files.sorted { $0.relative < $1.relative }
  }

  /// A folder's files, sorted by path; nil when it is not a folder.
  static func folderFiles(_ directory: String) -> [LayerFile]? {
    let fileManager = FileManager.default
    var isDirectory: ObjCBool = false
    guard fileManager.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
      return nil
    }
    let root = URL(fileURLWithPath: directory).standardizedFileURL
    var files: [LayerFile] = []
    for relative in (fileManager.subpaths(atPath: root.path) ?? []).sorted() {
      let url = root.appendingPathComponent(relative)
      var isFolder: ObjCBool = false
      guard fileManager.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else {
        continue
      }
      files.append(
        LayerFile(
          relative: relative, bytes: fileManager.contents(atPath: url.path).map { [UInt8]($0) },
          file: DatasetLoader.displayPath(url.path)))
    }
    return files
  }

  /// Loads the user's folders, then the built-in theme: the first layer
  /// that has a template name or an asset path wins, so a folder overrides
  /// any part of the theme by giving a file the same name.
  public static func load(directories: [String], builtIn: Bool = true) throws -> TemplateSet {
    var diagnostics: [Diagnostic] = []
    var compiled: [String: CompiledTemplate] = [:]
    var names: [String: String] = [:]
    var sources: [(name: String, file: String, tags: TemplateTags)] = []
    var texts: [String: String] = [:]
    var assets: [AssetFile] = []
    var assetPaths = Set<String>()
    let shown = (directories.map(DatasetLoader.displayPath) + (builtIn ? [builtInName] : []))
      .joined(separator: ", ")
    var layers: [[LayerFile]] = []
    for directory in directories {
      guard let files = folderFiles(directory) else {
        diagnostics.append(
          .error(
            at: SourceLocation(file: DatasetLoader.displayPath(directory)), "templates folder does not exist")
        )
        continue
      }
      layers.append(files)
    }
    if builtIn { layers.append(builtInFiles) }
    for layer in layers {
      var namesHere: [String: String] = [:]
      for entry in layer {
        let (relative, file) = (entry.relative, entry.file)
        guard let data = entry.bytes else {
          diagnostics.append(.error(at: SourceLocation(file: file), "cannot read template file"))
          continue
        }
        if relative.hasPrefix("assets/") {
          let path = String(relative.dropFirst("assets/".count))
          if assetPaths.insert(path).inserted {
            assets.append(AssetFile(path: path, bytes: data, source: file))
          }
          continue
        }
        guard relative.hasSuffix(".mustache") else { continue }
        let name = String(relative.split(separator: "/").last ?? "").dropLast(".mustache".count)
        let fileName = String(name)
        guard let text = String(validating: data, as: UTF8.self) else {
          diagnostics.append(
            .error(at: UTF8Check.firstInvalidByte(in: data, file: file), "template is not valid UTF-8"))
          // Still the template of that name: what includes it is not told
          // it does not exist, and a later folder's does not stand in.
          if names[fileName] == nil { names[fileName] = file }
          namesHere[fileName] = namesHere[fileName] ?? file
          continue
        }
        if let first = namesHere[fileName] {
          diagnostics.append(
            .error(
              at: SourceLocation(file: file),
              "two templates are named '\(fileName)' (the other is \(first)); partials are found by file name"
            ))
          continue
        }
        namesHere[fileName] = file
        // An earlier folder already has this name: it overrides this one.
        if names[fileName] != nil { continue }
        names[fileName] = file
        let tags = TemplateTags(text)
        sources.append((fileName, file, tags))
        texts[fileName] = text
        if let tag = tags.tooDeep {
          diagnostics.append(
            .error(
              at: SourceLocation(file: file, line: tag.line, column: tag.column),
              "sections nest more than \(TemplateTags.maxDepth) deep"))
          continue
        }
        for (transform, tag) in tags.unknownTransforms {
          let known = TemplateTags.transforms.sorted().joined(separator: ", ")
          diagnostics.append(
            .error(
              at: SourceLocation(file: file, line: tag.line, column: tag.column),
              "unknown template function '\(transform)' in '{{\(tag.content)}}'; known functions: \(known)"))
        }
        do {
          compiled[fileName] = try MustacheParser.parse(text)
        } catch {
          diagnostics.append(
            .error(
              at: SourceLocation(file: file, line: error.line, column: error.column),
              "template syntax: \(error.message)"))
        }
      }
    }
    for source in sources {
      for reference in source.tags.references where names[reference.content] == nil {
        diagnostics.append(
          .error(
            at: SourceLocation(file: source.file, line: reference.line, column: reference.column),
            "partial '\(reference.content)' does not exist (no \(reference.content).mustache in \(shown))"))
      }
    }
    diagnostics += Self.cycles(in: sources)
    diagnostics += Self.blocksInTheirOwnOverride(in: sources)
    if !diagnostics.isEmpty { throw DiagnosticsError(diagnostics) }
    var set = TemplateSet(directories: directories, names: Set(names.keys), assets: assets)
    set.builtIn = builtIn
    set.compiled = compiled
    for source in sources { set.tagsByName[source.name] = (source.file, source.tags) }
    set.textByName = texts
    return set
  }

  /// The stylesheets the templates write into their pages, by the names
  /// their `{{{styles.NAME}}}` tags give (`search-page` for
  /// `assets/css/search-page.css`): what the site's policy must allow by hash.
  var inlineStyleNames: Set<String> {
    var names = Set<String>()
    for source in tagsByName.values {
      for tag in source.tags.tags where tag.sigil == "{" || tag.sigil == "&" || tag.sigil == nil {
        if tag.content.hasPrefix(InlineStyles.prefix) {
          names.insert(String(tag.content.dropFirst(InlineStyles.prefix.count)))
        }
      }
    }
    return names
  }

  /// The templates a page rendered with `name` may use: itself and every
  /// partial and parent it reaches, read from the templates' own tags. Nil
  /// when that cannot be known statically — a dynamic partial
  /// (`{{>*name}}`) or changed delimiters on the way — so the page must be
  /// taken to use every template.
  func templates(reachableFrom name: String) -> Set<String>? {
    var seen = Set<String>()
    var pending = [name]
    while let next = pending.popLast() {
      guard seen.insert(next).inserted, let source = tagsByName[next] else { continue }
      if source.tags.changesDelimiters { return nil }
      for tag in source.tags.tags where tag.sigil == ">" && tag.content.hasPrefix("*") { return nil }
      pending += source.tags.references.map(\.content)
    }
    return seen
  }

  /// The template names whose text differs between two sets, including
  /// names only one of them has.
  func changedTemplates(since previous: TemplateSet) -> Set<String> {
    var changed = Set<String>()
    for name in Set(textByName.keys).union(previous.textByName.keys)
    where textByName[name] != previous.textByName[name] {
      changed.insert(name)
    }
    return changed
  }

  func has(_ name: String) -> Bool { names.contains(name) }

  /// The template `name` rendered over `object`, as swift-mustache renders
  /// it. Nil when there is no such template.
  func render(_ object: Any, withTemplate name: String) -> [UInt8]? {
    guard let template = compiled[name] else { return nil }
    var renderer = CompiledRenderer(templates: compiled)
    let bytes = renderer.render(template, object: object)
    if !renderer.genericReads.isEmpty { genericReads.note(renderer.genericReads, template: name) }
    if let chain = renderer.endless { endlessPartials.note(chain, template: name) }
    if !renderer.missingPartials.isEmpty {
      missingPartials.note(
        renderer.missingPartials, template: name, page: MissingPartials.Page(object, template: name))
    }
    if !renderer.objectTags.isEmpty {
      objectTags.note(renderer.objectTags, template: name, page: MissingPartials.Page(object, template: name))
    }
    return bytes
  }

  /// A template that is not one of the set's (an asset's), with the set's
  /// templates as its partials.
  func render(_ template: CompiledTemplate, object: Any) -> [UInt8] {
    var renderer = CompiledRenderer(templates: compiled)
    let bytes = renderer.render(template, object: object)
    if let chain = renderer.endless { endlessPartials.note(chain, template: "an asset") }
    if !renderer.missingPartials.isEmpty {
      missingPartials.note(
        renderer.missingPartials, template: "an asset", page: MissingPartials.Page((), template: "an asset"))
    }
    if !renderer.objectTags.isEmpty {
      objectTags.note(
        renderer.objectTags, template: "an asset", page: MissingPartials.Page((), template: "an asset"))
    }
    return bytes
  }

  /// The errors for pages whose partials nested without end, or whose
  /// dynamic partials named no template, if any.
  func checkEndlessPartials() throws(DiagnosticsError) {
    let folders = (directories.map(DatasetLoader.displayPath) + (builtIn ? [Self.builtInName] : []))
      .joined(separator: ", ")
    let diagnostics =
      endlessPartials.diagnostics(tagsByName) + missingPartials.diagnostics(tagsByName, folders: folders)
      + objectTags.diagnostics(tagsByName)
    if !diagnostics.isEmpty { throw DiagnosticsError(diagnostics) }
  }

  /// Forgets what an earlier render of this set noted.
  func clearRenderProblems() {
    endlessPartials.clear()
    missingPartials.clear()
    objectTags.clear()
  }

  /// Whether the template `name` is the built-in theme's, as written
  /// (a folder's copy of it counts).
  func isBuiltIn(_ name: String) -> Bool {
    guard let text = textByName[name] else { return false }
    return EmbeddedTheme.files.contains { $0.path == name + ".mustache" && $0.text == text }
  }

  /// The tags that write a value unescaped (`{{{name}}}`, `{{& name}}`) in
  /// a template and every partial and parent it reaches, with their files.
  func unescapedTags(reachableFrom name: String) -> [(file: String, tag: TemplateTags.Tag)] {
    var seen = Set<String>()
    var pending = [name]
    var found: [(file: String, tag: TemplateTags.Tag)] = []
    while let next = pending.popLast() {
      guard seen.insert(next).inserted, let source = tagsByName[next] else { continue }
      for tag in source.tags.tags where tag.sigil == "{" || tag.sigil == "&" {
        found.append((source.file, tag))
      }
      pending += source.tags.references.map(\.content)
    }
    return found.sorted { ($0.file, $0.tag.line, $0.tag.column) < ($1.file, $1.tag.line, $1.tag.column) }
  }

  /// When generated pages are not well-formed, the cause is most often a
  /// value written unescaped: errors at the tags that did so in the
  /// templates of those pages, so the message points at the line to change
  /// rather than only at the generated page.
  func blameUnescapedTags(forPages pages: [String], templateOfPage: [String: String]) -> [Diagnostic] {
    var templates: [String: [String]] = [:]
    for page in pages {
      if let template = templateOfPage[page] { templates[template, default: []].append(page) }
    }
    var blamed = Set<String>()
    var diagnostics: [Diagnostic] = []
    for (template, pagesOfTemplate) in templates.sorted(by: { $0.key < $1.key }) {
      for (file, tag) in unescapedTags(reachableFrom: template) {
        let place = SourceLocation(file: file, line: tag.line, column: tag.column)
        guard blamed.insert(place.description).inserted else { continue }
        let written = tag.sigil == "{" ? "{{{\(tag.content)}}}" : "{{&\(tag.content)}}"
        let more = pagesOfTemplate.count > 1 ? " and \(pagesOfTemplate.count - 1) more" : ""
        diagnostics.append(
          .error(
            at: place,
            "\(written) writes '\(tag.content)' unescaped, and \(pagesOfTemplate[0])\(more) that use it are not well-formed: write {{\(tag.content)}} to escape the value"
          ))
      }
    }
    return diagnostics
  }

  /// Blocks inside an override of their own name whose override some use
  /// of the template leaves in effect: a template no other names (a page),
  /// one included as a partial, or one a `{{<name}}` extends without
  /// overriding that block. Rendering it would never end (swift-mustache
  /// runs out of stack); where every use overrides the block, the override
  /// is never rendered and swift-mustache renders the pages.
  static func blocksInTheirOwnOverride(in sources: [(name: String, file: String, tags: TemplateTags)])
    -> [Diagnostic]
  {
    var uses: [String: [Set<String>]] = [:]
    for source in sources {
      for use in source.tags.uses { uses[use.name, default: []].append(use.overrides) }
    }
    var diagnostics: [Diagnostic] = []
    for source in sources {
      for tag in source.tags.blocksInTheirOwnOverride {
        let ways = uses[source.name] ?? []
        guard ways.isEmpty || ways.contains(where: { !$0.contains(tag.content) }) else { continue }
        diagnostics.append(
          .error(
            at: SourceLocation(file: source.file, line: tag.line, column: tag.column),
            "block '\(tag.content)' inside an override of '\(tag.content)' renders that override again, without end; Mustache cannot reach the parent's own default from an override (copy it in, or put it in a partial both include)"
          ))
      }
    }
    return diagnostics
  }

  /// Templates that include themselves, directly or through others
  /// (`artist → songrow → artist`), with no section on the way: rendering
  /// one would never end. Each cycle is reported once, at the reference
  /// that closes it. A cycle through a section (`{{#children}}{{> node}}`)
  /// is what swift-mustache renders as deep as the data goes; one whose
  /// data does not end is found while rendering (`EndlessPartials`).
  static func cycles(in sources: [(name: String, file: String, tags: TemplateTags)]) -> [Diagnostic] {
    var byName: [String: (file: String, references: [TemplateTags.Tag])] = [:]
    for source in sources { byName[source.name] = (source.file, source.tags.unguardedReferences) }
    var diagnostics: [Diagnostic] = []
    var done = Set<String>()
    var reported = Set<String>()
    func visit(_ name: String, path: [String]) {
      guard let source = byName[name], !done.contains(name) else { return }
      for reference in source.references {
        let next = reference.content
        if let start = path.firstIndex(of: next) {
          let cycle = Array(path[start...]) + [name, next]
          let key = Set(cycle).sorted().joined(separator: "\u{1}")
          if reported.insert(key).inserted {
            let what = reference.sigil == "<" ? "template inheritance" : "partials"
            diagnostics.append(
              .error(
                at: SourceLocation(file: source.file, line: reference.line, column: reference.column),
                "\(what) include themselves: \(cycle.joined(separator: " → ")), with no section around them, so rendering never ends (a partial may include itself inside a section whose data ends, such as {{#children}}…{{/children}})"
              ))
          }
          continue
        }
        if next == name {
          if reported.insert(name).inserted {
            diagnostics.append(
              .error(
                at: SourceLocation(file: source.file, line: reference.line, column: reference.column),
                "template '\(name)' includes itself: \(name) → \(name), with no section around it, so rendering never ends (a partial may include itself inside a section whose data ends, such as {{#children}}…{{/children}})"
              ))
          }
          continue
        }
        visit(next, path: path + [name])
      }
      done.insert(name)
    }
    // From where pages enter a loop: names in the order a walk over every
    // reference meets them (a page before its partials).
    var all: [String: [TemplateTags.Tag]] = [:]
    for source in sources { all[source.name] = source.tags.references }
    var order: [String] = []
    var met = Set<String>()
    func walk(_ name: String) {
      guard met.insert(name).inserted, let references = all[name] else { return }
      order.append(name)
      for reference in references { walk(reference.content) }
    }
    for source in sources { walk(source.name) }
    for name in order { visit(name, path: []) }
    return diagnostics
  }
}
