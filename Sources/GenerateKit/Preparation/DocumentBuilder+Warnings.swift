import Foundation

/// Mistakes that still give a working site, found while preparing: each a
/// warning at the config line that caused it (`PreparedSite.warnings`).
extension DocumentBuilder {
  /// Names every record context answers, whatever its collection
  /// (`RecordContext`).
  static let builtInNames: Set<String> = [
    "id", "key", "title", "subtitle", "slug", "hue", "url", "kind", "initial", "artwork",
  ]

  /// A name in a `subtitle:`, `url:` or page `path:` that no record of the
  /// collection can define renders empty, silently: `{{typelabel}}` for a
  /// field called `typeLabel`. Only the snippet's top level is checked —
  /// inside a section the names belong to whatever it opened — and only a
  /// name's first part (`artist` of `artist.title`).
  func snippetWarnings(_ collections: [PreparedCollection]) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    for collection in collections {
      let spec = collection.config
      let table = collection.table
      let fields = spec.fields.map(\.name)
      let known = Self.builtInNames.union(fields).union(table.header)
      let snippets: [(what: String, text: SiteConfig.Located<String>?)] = [
        ("subtitle", spec.subtitle), ("url", spec.url), ("page path", spec.page?.path),
      ]
      for (what, snippet) in snippets {
        guard let snippet else { continue }
        var reported = Set<String>()
        for name in Self.topLevelNames(snippet.value) where !known.contains(name) {
          // A nested JSON object's field is one dotted column (`artist.name`).
          guard !table.header.contains(where: { $0.hasPrefix(name + ".") }), reported.insert(name).inserted
          else { continue }
          let candidates = Self.builtInNames.union(fields).union(table.header).sorted()
          diagnostics.append(
            .warning(
              at: snippet.location,
              "'{{\(name)}}' in the \(what) of collection '\(spec.id)' renders empty: no field, column of table '\(table.name)' or built-in name is called '\(name)'"
                + ClosestName.hint(name, in: candidates)))
        }
      }
    }
    return diagnostics
  }

  /// The names a Mustache snippet looks up in the record itself: tags
  /// outside any section (a section's own name included), transforms
  /// stripped (`uppercased(title)` → `title`), up to the first `.`.
  static func topLevelNames(_ text: String) -> [String] {
    let scan = TemplateTags(text)
    var names: [String] = []
    var depth = 0
    for tag in scan.tags {
      switch tag.sigil {
      case "/":
        depth = max(0, depth - 1)
        continue
      case "#", "^":
        depth += 1
        if depth > 1 { continue }
      case "$", "<":
        depth += 1
        continue
      case nil, "&", "{":
        if depth > 0 { continue }
      default:
        continue
      }
      var name = Substring(tag.content)
      if let open = name.lastIndex(of: "(") { name = name[name.index(after: open)...] }
      if let close = name.firstIndex(of: ")") { name = name[..<close] }
      let first = name.split(separator: ".", omittingEmptySubsequences: false).first ?? ""
      let trimmed = first.trimmingCharacters(in: .whitespaces)
      if !trimmed.isEmpty { names.append(trimmed) }
    }
    return names
  }

  /// A scope whose value no searchable record has for its facet shows
  /// nothing at all (`value: Livng`).
  func scopeWarnings(_ site: PreparedSite) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    // Indexes, not a filtered copy: at a million records a copy of every
    // document would cost far more than the scan.
    let searchable = site.collections.map(\.config.searchable)
    let documents = site.documents
    for scope in site.config.scopes {
      guard let facet = scope.facet, let written = scope.value,
        let number = site.facets.firstIndex(where: { $0.id == facet })
      else { continue }
      let value = site.scopeValue(written, facet: number)
      guard
        !documents.indices.contains(where: {
          searchable[documents[$0].collection] && site.facetValues(of: $0, facet: number).contains(value)
        })
      else { continue }
      var values = Set<String>()
      for index in documents.indices where searchable[documents[index].collection] {
        values.formUnion(site.facetValues(of: index, facet: number))
      }
      let shown = value == written ? "'\(written)'" : "'\(written)' ('\(value)')"
      diagnostics.append(
        .warning(
          at: scope.location,
          "scope '\(scope.id)' matches no record: no searchable record has \(shown) for facet '\(facet)'"
            + ClosestName.hint(value, in: values)))
    }
    return diagnostics
  }
}
