/// Checks generated pages — polyglot HTML5 written in XHTML syntax — for
/// well-formedness, the few things every page needs, broken in-page
/// references, and anything `Content-Security-Policy: default-src 'self'`
/// would block.
///
/// Debian's libxml2 (2.9) has an HTML parser that predates HTML5, so pages
/// go through the XML parser instead: polyglot markup is well-formed XML,
/// and the XML parser reports real faults with exact positions. `LibXML2`
/// is the C boundary, `PageChecker` the rules, `SourceLocator` the
/// positions, `InternedNames` the name lookups and `HTMLFacts` the HTML
/// knowledge; this type puts them together.
///
/// Safe to call from several threads at once (see `LibXML2`).
public struct HTMLValidator: Sendable {
  /// Origins the site's `img-src` allows besides its own.
  public var imageOrigins: Set<String> = []
  /// The `'sha256-…'` sources the site's `style-src` allows: the inline
  /// stylesheets the build wrote (`InlineStyles.hashes`).
  public var styleHashes: Set<String> = []

  public init(imageOrigins: [String] = [], styleHashes: [String] = []) {
    _ = LibXML2.initialized
    self.imageOrigins = Set(imageOrigins)
    self.styleHashes = Set(styleHashes)
  }

  /// Parses one page and returns its problems and the facts the site-wide
  /// link check needs. `path` is the page's site-relative path, used as the
  /// file of every diagnostic.
  public func check(_ bytes: [UInt8], path: String) -> PageReport {
    // A feed (`page: { path: "shows/{{slug}}/feed.xml" }`) is XML, not a
    // page: well-formed is all it must be.
    if Self.isXML(path) { return PageReport(diagnostics: checkXML(bytes, path: path)) }
    return bytes.withUnsafeBufferPointer { source in
      if let problem = Self.unparsable(source, path: path) { return PageReport(diagnostics: [problem]) }
      return LibXML2.parse(source, recordingElementOffsets: true) { document, errors in
        var report = PageReport(diagnostics: Self.diagnostics(for: errors, path: path))
        guard let document, let root = document.root else { return report }
        var checker = PageChecker(
          path: path, source: source, names: InternedNames(document), imageOrigins: imageOrigins,
          styleHashes: styleHashes)
        checker.check(root: root)
        report.diagnostics += checker.sortedDiagnostics()
        report.ids = checker.documentIDs
        report.links = checker.links
        return report
      }
    }
  }

  /// Whether a page path names an XML file (a feed) rather than a page.
  static func isXML(_ path: String) -> Bool { path.hasSuffix(".xml") }

  /// Checks that an XML file (a sitemap, a feed) is well-formed.
  public func checkXML(_ bytes: [UInt8], path: String) -> [Diagnostic] {
    bytes.withUnsafeBufferPointer { source in
      if let problem = Self.unparsable(source, path: path) { return [problem] }
      return LibXML2.parse(source, recordingElementOffsets: false) { _, errors in
        Self.diagnostics(for: errors, path: path)
      }
    }
  }

  private static func unparsable(_ source: UnsafeBufferPointer<UInt8>, path: String) -> Diagnostic? {
    if source.isEmpty { return .error(at: SourceLocation(file: path), "file is empty") }
    if Int32(exactly: source.count) == nil {
      return .error(at: SourceLocation(file: path), "file is too large to check (\(source.count) bytes)")
    }
    return nil
  }

  static func diagnostics(for errors: [LibXML2.ParseError], path: String) -> [Diagnostic] {
    withoutCascades(errors).map { error in
      Diagnostic(
        error.isWarning ? .warning : .error,
        at: SourceLocation(file: path, line: max(error.line, 1), column: max(error.column, 1)),
        error.message + hint(for: error))
    }
  }

  /// libxml2 keeps parsing after a fatal error, so one unclosed tag is
  /// followed by a mismatch for every enclosing element. Errors up to the
  /// first one that breaks the element structure are independent (two bare
  /// `&` on different lines are two errors) and all kept; what follows it is
  /// cascade and dropped, as are further errors at the same position.
  static func withoutCascades(_ errors: [LibXML2.ParseError]) -> [LibXML2.ParseError] {
    var kept: [LibXML2.ParseError] = []
    for error in errors {
      if let previous = kept.last, previous.line == error.line, previous.column == error.column { continue }
      kept.append(error)
      if error.kind == .structural || error.kind == .lessThanInAttribute { break }
    }
    return kept
  }

  /// What to write instead, for the faults generated HTML is likely to have.
  static func hint(for error: LibXML2.ParseError) -> String {
    switch error.kind {
    case .undeclaredEntity:
      " (the XML syntax knows no HTML named entities: write a numeric reference such as &#160;)"
    case .nameRequired where error.message.hasPrefix("xmlParseEntityRef"):
      " (write a literal \"&\" as &amp;)"
    case .nameRequired where error.message.hasPrefix("StartTag"):
      " (write a literal \"<\" as &lt;)"
    case .lessThanInAttribute:
      " (write &lt;)"
    default:
      ""
    }
  }
}

/// What checking one page found.
public struct PageReport: Sendable, Hashable {
  /// Problems on the page, in source order (parse errors first).
  public var diagnostics: [Diagnostic]
  /// Every `id` in the document, for links from other pages to `page#id`.
  /// Ids inside `<template>` content are left out: they are not in the
  /// document until a script clones them.
  public var ids: Set<String>
  /// Every URL-valued attribute, for the site-wide link check.
  public var links: [PageLink]

  public init(diagnostics: [Diagnostic] = [], ids: Set<String> = [], links: [PageLink] = []) {
    self.diagnostics = diagnostics
    self.ids = ids
    self.links = links
  }
}

/// One URL on a page, as written.
public struct PageLink: Sendable, Hashable {
  /// The raw attribute value (for `srcset`, one candidate's URL).
  public var target: String
  /// The attribute it came from: `href`, `xlink:href`, `src`, `srcset`,
  /// `action`, `formaction`, `poster` or `data`.
  public var attribute: String
  /// The byte offset where the attribute's name starts. Turned into a line
  /// and column (`SourceLocator`) only when the link is broken: most pages
  /// have hundreds of links and none of them broken.
  public var offset: Int

  public init(target: String, attribute: String, offset: Int) {
    self.target = target
    self.attribute = attribute
    self.offset = offset
  }
}
