import CLibXML2

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Checks generated pages — polyglot HTML5 written in XHTML syntax — for
/// well-formedness, the few things every page needs, broken in-page
/// references, and anything `Content-Security-Policy: default-src 'self'`
/// would block.
///
/// Debian's libxml2 (2.9) has an HTML parser that predates HTML5, so pages
/// go through the XML parser instead: polyglot markup is well-formed XML,
/// and the XML parser reports real faults with exact positions. This is the
/// only file that talks to libxml2.
///
/// Safe to call from several threads at once: every call parses with its
/// own parser context, and error reporting goes through libxml2's per-thread
/// structured-error handler, which each call sets and restores.
public struct HTMLValidator: Sendable {
  public init() {
    _ = libxml2Initialized
  }

  /// Parses one page and returns its problems and the facts the site-wide
  /// link check needs. `path` is the page's site-relative path, used as the
  /// file of every diagnostic and link location.
  public func check(_ bytes: [UInt8], path: String) -> PageReport {
    bytes.withUnsafeBufferPointer { source in
      withParsedDocument(source, path: path, recordingElementOffsets: true) { document, parseDiagnostics in
        var report = PageReport(diagnostics: parseDiagnostics)
        guard let document, let root = xmlDocGetRootElement(document) else { return report }
        var checker = PageChecker(path: path, source: source, document: document)
        checker.checkDocumentShape(root: root)
        checker.walk(from: root)
        checker.resolveReferences()
        report.diagnostics += checker.sortedDiagnostics()
        report.ids = checker.documentIDs
        report.links = checker.links
        return report
      }
    }
  }

  /// Checks that an XML file (a sitemap, a feed) is well-formed.
  public func checkXML(_ bytes: [UInt8], path: String) -> [Diagnostic] {
    bytes.withUnsafeBufferPointer { source in
      withParsedDocument(source, path: path, recordingElementOffsets: false) { _, diagnostics in diagnostics }
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
  /// Where the attribute's name starts.
  public var location: SourceLocation

  public init(target: String, attribute: String, location: SourceLocation) {
    self.target = target
    self.attribute = attribute
    self.location = location
  }
}

// MARK: - Parsing

/// libxml2 builds global tables on first use, which is not thread-safe;
/// `xmlInitParser()` must run once before threads parse concurrently. A
/// global's initializer runs exactly once, guarded by `swift_once`.
private let libxml2Initialized: Bool = {
  xmlInitParser()
  return true
}()

/// The `xmlParserOption` flags this file passes to libxml2.
private struct XMLParseOptions: OptionSet {
  let rawValue: Int32

  init(rawValue: Int32) { self.rawValue = rawValue }
  private init(_ option: xmlParserOption) { rawValue = Int32(bitPattern: option.rawValue) }

  /// Never fetch anything (external DTDs, entities) over the network.
  static let noNetwork = XMLParseOptions(XML_PARSE_NONET)
  /// Store short text nodes inline: fewer allocations per page.
  static let compactTextNodes = XMLParseOptions(XML_PARSE_COMPACT)
}

/// One error as libxml2 reported it, copied out of its callback.
private struct XMLParseError {
  var message: String
  var line: Int
  var column: Int
  var code: Int32
  var isWarning: Bool
}

/// Collects errors from libxml2's structured-error callback; the context
/// pointer the callback receives points at this object.
private final class XMLErrorCollector {
  var errors: [XMLParseError] = []
}

/// Parses `source` with the XML parser, reports its errors as diagnostics
/// and hands the document (nil when the page is not well-formed) to `body`.
/// The document is freed when `body` returns.
private func withParsedDocument<Result>(
  _ source: UnsafeBufferPointer<UInt8>,
  path: String,
  recordingElementOffsets: Bool,
  _ body: (xmlDocPtr?, [Diagnostic]) -> Result
) -> Result {
  let file = SourceLocation(file: path)
  guard let base = source.baseAddress, !source.isEmpty else {
    return body(nil, [.error(at: file, "file is empty")])
  }
  guard let length = Int32(exactly: source.count) else {
    return body(nil, [.error(at: file, "file is too large to check (\(source.count) bytes)")])
  }
  guard let context = xmlNewParserCtxt() else {
    return body(nil, [.error(at: file, "libxml2 could not create a parser")])
  }
  defer { xmlFreeParserCtxt(context) }
  if recordingElementOffsets, let sax = context.pointee.sax {
    sax.pointee.startElementNs = recordStartTagEnd
  }

  let collector = XMLErrorCollector()
  let document: xmlDocPtr? = withExtendedLifetime(collector) {
    let previousHandler = generate_currentStructuredErrorHandler()
    let previousContext = generate_currentStructuredErrorContext()
    xmlSetStructuredErrorFunc(Unmanaged.passUnretained(collector).toOpaque(), collectError)
    defer { xmlSetStructuredErrorFunc(previousContext, previousHandler) }
    let options: XMLParseOptions = [.noNetwork, .compactTextNodes]
    return UnsafeRawPointer(base).withMemoryRebound(to: CChar.self, capacity: source.count) {
      xmlCtxtReadMemory(context, $0, length, nil, nil, options.rawValue)
    }
  }
  defer { if let document { xmlFreeDoc(document) } }

  let diagnostics = withoutCascades(collector.errors).map { error in
    Diagnostic(
      error.isWarning ? .warning : .error,
      at: SourceLocation(file: path, line: max(error.line, 1), column: max(error.column, 1)),
      error.message + hint(for: error))
  }
  return body(document, diagnostics)
}

/// Errors after which libxml2's picture of the element tree is wrong.
private let structuralErrors = Set(
  [
    XML_ERR_DOCUMENT_EMPTY, XML_ERR_DOCUMENT_END, XML_ERR_LT_IN_ATTRIBUTE, XML_ERR_ATTRIBUTE_NOT_STARTED,
    XML_ERR_ATTRIBUTE_WITHOUT_VALUE, XML_ERR_GT_REQUIRED, XML_ERR_LTSLASH_REQUIRED, XML_ERR_TAG_NAME_MISMATCH,
    XML_ERR_TAG_NOT_FINISHED,
  ].map { Int32(bitPattern: $0.rawValue) })

/// libxml2 keeps parsing after a fatal error, so one unclosed tag is
/// followed by a mismatch for every enclosing element. Errors up to the
/// first one that breaks the element structure are independent (two bare
/// `&` on different lines are two errors) and all kept; what follows it is
/// cascade and dropped, as are further errors at the same position.
private func withoutCascades(_ errors: [XMLParseError]) -> [XMLParseError] {
  var kept: [XMLParseError] = []
  for error in errors {
    if let previous = kept.last, previous.line == error.line, previous.column == error.column { continue }
    kept.append(error)
    if structuralErrors.contains(error.code) { break }
  }
  return kept
}

/// What to write instead, for the faults generated HTML is likely to have.
private func hint(for error: XMLParseError) -> String {
  switch error.code {
  case Int32(bitPattern: XML_ERR_UNDECLARED_ENTITY.rawValue),
    Int32(bitPattern: XML_WAR_UNDECLARED_ENTITY.rawValue):
    return " (the XML syntax knows no HTML named entities: write a numeric reference such as &#160;)"
  case Int32(bitPattern: XML_ERR_NAME_REQUIRED.rawValue) where error.message.hasPrefix("xmlParseEntityRef"):
    return " (write a literal \"&\" as &amp;)"
  case Int32(bitPattern: XML_ERR_NAME_REQUIRED.rawValue) where error.message.hasPrefix("StartTag"):
    return " (write a literal \"<\" as &lt;)"
  case Int32(bitPattern: XML_ERR_LT_IN_ATTRIBUTE.rawValue):
    return " (write &lt;)"
  default:
    return ""
  }
}

/// The structured-error callback: copies the error out at once (libxml2
/// reuses the struct) into the collector behind the context pointer.
private func collectError(_ context: UnsafeMutableRawPointer?, _ error: xmlErrorPtr?) {
  guard let context, let error else { return }
  let collector = Unmanaged<XMLErrorCollector>.fromOpaque(context).takeUnretainedValue()
  var message = error.pointee.message.map { String(cString: $0) } ?? "XML error \(error.pointee.code)"
  while let last = message.last, last.isWhitespace { message.removeLast() }
  collector.errors.append(
    XMLParseError(
      message: message,
      line: Int(error.pointee.line),
      // libxml2 2.9 keeps the column in `int2`.
      column: Int(error.pointee.int2),
      code: error.pointee.code,
      isWarning: error.pointee.level == XML_ERR_WARNING))
}

/// The XML parser keeps a line per element but no column. This SAX hook
/// builds the element as usual and then stores, in the node's `_private`
/// field, one past the byte offset where the parser stands: the end of the
/// start tag (its `>` or `/>`). Scanning back to the `<` from there is exact,
/// because `<` cannot occur inside a well-formed tag.
private func recordStartTagEnd(
  _ context: UnsafeMutableRawPointer?,
  _ localName: UnsafePointer<xmlChar>?,
  _ prefix: UnsafePointer<xmlChar>?,
  _ namespaceURI: UnsafePointer<xmlChar>?,
  _ namespaceCount: Int32,
  _ namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
  _ attributeCount: Int32,
  _ defaultedCount: Int32,
  _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
) {
  xmlSAX2StartElementNs(
    context, localName, prefix, namespaceURI, namespaceCount, namespaces, attributeCount,
    defaultedCount, attributes)
  guard let parser = context?.assumingMemoryBound(to: xmlParserCtxt.self),
    let node = parser.pointee.node, node.pointee._private == nil,
    let input = parser.pointee.input, let current = input.pointee.cur, let base = input.pointee.base
  else { return }
  let offset = Int(input.pointee.consumed) + (current - base)
  node.pointee._private = UnsafeMutableRawPointer(bitPattern: offset + 1)
}

// MARK: - Checking one page

/// What a diagnostic or link points at, resolved to a line and column only
/// when needed.
private enum Anchor {
  case element(xmlNodePtr)
  case attribute(xmlNodePtr, xmlAttrPtr)
}

/// The ids visible to a part of the page. The document is scope 0; each
/// `<template>` opens a scope whose content may refer to its own ids and to
/// those of the enclosing scopes.
private struct IDScope {
  var parent: Int?
  var ids: [String: Anchor] = [:]
}

/// An attribute that must name an id on the page.
private struct IDReference {
  var scope: Int
  var id: String
  /// How the problem is described: `aria-controls`, `label for`, `href`.
  var attribute: String
  var anchor: Anchor
  var isFragment: Bool
}

private typealias URLText = SiteLinkChecker.URLText

private let contentSecurityPolicy = "Content-Security-Policy \"default-src 'self'\""
private let xhtmlNamespace = "http://www.w3.org/1999/xhtml"

/// Walks one well-formed page's tree once, collecting diagnostics, ids,
/// references (resolved after the walk, so forward references work) and
/// links.
private struct PageChecker {
  let path: String
  let source: UnsafeBufferPointer<UInt8>
  let names: InternedNames
  var locator: Locator

  var scopes = [IDScope(parent: nil)]
  var references: [IDReference] = []
  var links: [PageLink] = []
  private var found: [(location: SourceLocation, message: String)] = []

  init(path: String, source: UnsafeBufferPointer<UInt8>, document: xmlDocPtr) {
    self.path = path
    self.source = source
    self.names = InternedNames(document.pointee.dict)
    self.locator = Locator(source: source)
  }

  var documentIDs: Set<String> { Set(scopes[0].ids.keys) }

  // MARK: Page shape

  mutating func checkDocumentShape(root: xmlNodePtr) {
    let doctype = Array("<!DOCTYPE html>".utf8)
    var start = 0
    if source.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
    if !source[start...].starts(with: doctype) {
      report(at: SourceLocation(file: path), "page must start with \"<!DOCTYPE html>\"")
    }

    guard names[root] == .html, root.pointee.ns?.pointee.prefix == nil else {
      report(.element(root), "the root element must be html, not \(qualifiedName(root))")
      return
    }
    if let namespace = root.pointee.ns?.pointee.href, String(cString: namespace) != xhtmlNamespace {
      report(.element(root), "html element's namespace must be \"\(xhtmlNamespace)\" (or left out)")
    }
    if isBlank(attributeValue(root, .lang)) {
      report(.element(root), "html element needs a non-empty lang attribute")
    }
    guard let head = firstElementChild(root), names[head] == .head else {
      report(.element(root), "html element must start with a head element")
      return
    }
    var hasTitle = false
    var hasDescription = false
    var child = firstElementChild(head)
    while let element = child {
      switch names[element] {
      case .title:
        hasTitle = hasTitle || !isBlank(textContent(element))
      case .meta:
        if attributeValue(element, .name)?.lowercased() == "description" {
          hasDescription = hasDescription || !isBlank(attributeValue(element, .content))
        }
      default:
        break
      }
      child = nextElementSibling(element)
    }
    if !hasTitle {
      report(.element(head), "head needs a title element with text")
    }
    if !hasDescription {
      report(.element(head), "head needs <meta name=\"description\"> with non-empty content")
    }
  }

  // MARK: Walk

  /// Visits every element below and including `root` in document order,
  /// without recursion.
  mutating func walk(from root: xmlNodePtr) {
    var templates: [xmlNodePtr] = []
    var scope = 0
    var next: xmlNodePtr? = root
    while let element = next {
      let elementName = names[element]
      visit(element, named: elementName, scope: scope)
      if elementName == .template {
        scopes.append(IDScope(parent: scope))
        scope = scopes.count - 1
        templates.append(element)
      }
      if let child = firstElementChild(element) {
        next = child
        continue
      }
      next = nil
      var cursor = element
      while true {
        if templates.last == cursor {
          templates.removeLast()
          scope = scopes[scope].parent ?? 0
        }
        if cursor == root { break }
        if let sibling = nextElementSibling(cursor) {
          next = sibling
          break
        }
        guard let parent = cursor.pointee.parent else { break }
        cursor = parent
      }
    }
  }

  private mutating func visit(_ element: xmlNodePtr, named elementName: KnownName?, scope: Int) {
    var hasAlt = false
    var hasSource = false
    var scriptType: String?
    var linkRel: String?
    var linkHref: (attribute: xmlAttrPtr, value: String)?

    var property = element.pointee.properties
    while let attribute = property {
      property = attribute.pointee.next
      guard var attributeName = names[attribute] else {
        if attribute.pointee.ns == nil, isEventHandler(attribute.pointee.name) {
          let written = attribute.pointee.name.map { String(cString: $0) } ?? ""
          report(
            .attribute(element, attribute),
            "event-handler attribute \(written) is blocked by \(contentSecurityPolicy); "
              + "add the listener from a script file")
        }
        continue
      }
      if let namespace = attribute.pointee.ns {
        // Only `xlink:href` matters among namespaced attributes.
        guard attributeName == .href, let prefix = namespace.pointee.prefix, xmlStrEqual(prefix, "xlink") != 0
        else { continue }
        attributeName = .xlinkHref
      }
      switch attributeName {
      case .id:
        recordID(attributeValue(attribute), element: element, attribute: attribute, scope: scope)
      case .alt:
        hasAlt = true
      case .type:
        scriptType = attributeValue(attribute)
      case .rel:
        linkRel = attributeValue(attribute)
      case .style:
        report(
          .attribute(element, attribute),
          "style attribute is blocked by \(contentSecurityPolicy); use a class")
      case .href, .xlinkHref:
        let value = attributeValue(attribute)
        if elementName == .link { linkHref = (attribute, value) }
        let loadsResource =
          elementName == .image || elementName == .use || elementName == .feImage
          || elementName == .script
        checkURL(
          value, attribute: attributeName, element: element, node: attribute, scope: scope,
          loadsResource: loadsResource)
      case .src, .poster, .data:
        guard attributeName != .data || elementName == .object else { break }
        hasSource = hasSource || attributeName == .src
        checkURL(
          attributeValue(attribute), attribute: attributeName, element: element, node: attribute,
          scope: scope, loadsResource: true)
      case .action, .formaction:
        checkURL(
          attributeValue(attribute), attribute: attributeName, element: element, node: attribute,
          scope: scope, loadsResource: false)
      case .srcset:
        for candidate in srcsetURLs(attributeValue(attribute)) {
          checkURL(
            candidate, attribute: attributeName, element: element, node: attribute, scope: scope,
            loadsResource: true)
        }
      default:
        if let kind = idReferenceKind(attribute: attributeName, element: elementName) {
          let label = attributeName == .for ? "\(elementName?.rawValue ?? "") for" : attributeName.rawValue
          recordReferences(
            attributeValue(attribute), kind: kind, label: label, anchor: .attribute(element, attribute),
            scope: scope)
        }
      }
    }

    switch elementName {
    case .img where !hasAlt:
      report(.element(element), "img needs an alt attribute (alt=\"\" if it is decorative)")
    case .script where !hasSource && isExecutableScript(type: scriptType) && !isBlank(textContent(element)):
      report(
        .element(element),
        "inline script is blocked by \(contentSecurityPolicy); move it to a file loaded with src")
    case .style:
      report(.element(element), "style element is blocked by \(contentSecurityPolicy); use a stylesheet file")
    case .link:
      if let linkHref, let linkRel, relLoadsResource(linkRel), isOffSite(linkHref.value) {
        report(
          .attribute(element, linkHref.attribute),
          "href=\"\(linkHref.value)\" is blocked by \(contentSecurityPolicy); serve the file from the site")
      }
    default:
      break
    }
  }

  // MARK: Ids and references

  private mutating func recordID(_ value: String, element: xmlNodePtr, attribute: xmlAttrPtr, scope: Int) {
    let anchor = Anchor.attribute(element, attribute)
    if value.isEmpty || value.utf8.contains(where: isASCIIWhitespace) {
      report(anchor, "id \"\(value)\" must be non-empty and contain no spaces")
      return
    }
    if let first = scopes[scope].ids[value] {
      let firstLine = location(of: first).line
      report(anchor, "duplicate id \"\(value)\" (first used on line \(firstLine))")
      return
    }
    scopes[scope].ids[value] = anchor
  }

  /// Records the ids an attribute refers to; `label` names it in messages
  /// (`aria-controls`, `label for`).
  private mutating func recordReferences(
    _ value: String, kind: IDReferenceKind, label: String, anchor: Anchor, scope: Int
  ) {
    switch kind {
    case .list:
      forEachToken(in: value) { id in
        references.append(
          IDReference(scope: scope, id: id, attribute: label, anchor: anchor, isFragment: false))
      }
    case .single(let allowsEmpty):
      if value.isEmpty {
        if !allowsEmpty { report(anchor, "\(label) is empty; it must name an id on this page") }
        return
      }
      references.append(
        IDReference(scope: scope, id: value, attribute: label, anchor: anchor, isFragment: false))
    }
  }

  /// Reports every reference that names no id in its scope or the scopes
  /// around it.
  mutating func resolveReferences() {
    for reference in references {
      if isDefined(reference.id, from: reference.scope) { continue }
      // Browsers try a fragment as written, then percent-decoded.
      if reference.isFragment, let decoded = URLText.percentDecoded(reference.id),
        isDefined(decoded, from: reference.scope)
      {
        continue
      }
      if reference.isFragment {
        report(
          reference.anchor, "\(reference.attribute)=\"#\(reference.id)\" points to no id on this page")
      } else {
        report(
          reference.anchor,
          "\(reference.attribute) refers to \"\(reference.id)\", which is not an id on this page")
      }
    }
  }

  private func isDefined(_ id: String, from scope: Int) -> Bool {
    var scope: Int? = scope
    while let index = scope {
      if scopes[index].ids[id] != nil { return true }
      scope = scopes[index].parent
    }
    return false
  }

  // MARK: URLs

  /// Collects a URL for the site-wide check and checks what a page alone
  /// can: `javascript:`, off-site resources, and `#id` links.
  private mutating func checkURL(
    _ value: String, attribute name: KnownName, element: xmlNodePtr, node: xmlAttrPtr, scope: Int,
    loadsResource: Bool
  ) {
    let attribute = name.rawValue
    let anchor = Anchor.attribute(element, node)
    links.append(PageLink(target: value, attribute: attribute, location: location(of: anchor)))
    let url = URLText.trimmed(value)
    if hasJavaScriptScheme(url) {
      report(anchor, "javascript: URL is blocked by \(contentSecurityPolicy); use a button and a script file")
      return
    }
    if loadsResource, isOffSite(value) {
      report(
        anchor,
        "\(attribute)=\"\(value)\" is blocked by \(contentSecurityPolicy); serve the file from the site")
      return
    }
    guard name == .href || name == .xlinkHref, url.first == "#" else { return }
    let fragment = String(url.dropFirst())
    if fragment.isEmpty {
      report(anchor, "\(attribute)=\"#\" points nowhere; link to an id, or use a button")
      return
    }
    references.append(
      IDReference(scope: scope, id: fragment, attribute: attribute, anchor: anchor, isFragment: true))
  }

  // MARK: Reporting

  private mutating func report(_ anchor: Anchor, _ message: String) {
    report(at: location(of: anchor), message)
  }

  private mutating func report(at location: SourceLocation, _ message: String) {
    found.append((location, message))
  }

  /// Diagnostics in source order; reference problems found after the walk
  /// fall into place.
  func sortedDiagnostics() -> [Diagnostic] {
    found.enumerated()
      .sorted {
        ($0.element.location.line, $0.element.location.column, $0.offset)
          < ($1.element.location.line, $1.element.location.column, $1.offset)
      }
      .map { Diagnostic.error(at: $0.element.location, $0.element.message) }
  }

  private mutating func location(of anchor: Anchor) -> SourceLocation {
    let node: xmlNodePtr
    var offset: Int?
    switch anchor {
    case .element(let element):
      node = element
      offset = tagStart(element)
    case .attribute(let element, let attribute):
      node = element
      if let start = tagStart(element) {
        offset = attributeStart(attribute, inTagAt: start) ?? start
      }
    }
    guard let offset else {
      // Not expected: every element gets an offset while parsing. Fall back
      // to the line libxml2 keeps.
      return SourceLocation(file: path, line: max(Int(xmlGetLineNo(node)), 1), column: 1)
    }
    let (line, column) = locator.lineAndColumn(at: offset)
    return SourceLocation(file: path, line: line, column: column)
  }

  // MARK: Source positions

  /// The offset of the element's `<`, found by scanning back from the end
  /// of its start tag and checked against its name.
  private func tagStart(_ element: xmlNodePtr) -> Int? {
    guard let recorded = element.pointee._private else { return nil }
    var index = min(Int(bitPattern: recorded) - 1, source.count - 1)
    while index >= 0, source[index] != UInt8(ascii: "<") { index -= 1 }
    guard index >= 0 else { return nil }
    let nameEnd = skipName(from: index + 1)
    let matches = matchesQualifiedName(
      element.pointee.ns?.pointee.prefix, element.pointee.name, from: index + 1, to: nameEnd)
    guard matches else { return nil }
    return index
  }

  /// The offset where the attribute's name starts inside the start tag that
  /// begins at `start`. The tag is well-formed, so a small lexer is exact.
  private func attributeStart(_ attribute: xmlAttrPtr, inTagAt start: Int) -> Int? {
    var index = skipName(from: start + 1)
    while true {
      while index < source.count, isASCIIWhitespace(source[index]) { index += 1 }
      guard index < source.count, source[index] != UInt8(ascii: ">"), source[index] != UInt8(ascii: "/")
      else { return nil }
      let nameStart = index
      while index < source.count, source[index] != UInt8(ascii: "="), !isASCIIWhitespace(source[index]) {
        index += 1
      }
      if matchesQualifiedName(
        attribute.pointee.ns?.pointee.prefix, attribute.pointee.name, from: nameStart, to: index)
      {
        return nameStart
      }
      while index < source.count, source[index] != UInt8(ascii: "=") { index += 1 }
      index += 1
      while index < source.count, isASCIIWhitespace(source[index]) { index += 1 }
      guard index < source.count else { return nil }
      let quote = source[index]
      index += 1
      while index < source.count, source[index] != quote { index += 1 }
      index += 1
    }
  }

  private func skipName(from start: Int) -> Int {
    var index = start
    while index < source.count {
      let byte = source[index]
      if isASCIIWhitespace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") { break }
      index += 1
    }
    return index
  }

  /// Whether `source[from..<to]` spells `prefix:name` (or `name`).
  private func matchesQualifiedName(
    _ prefix: UnsafePointer<xmlChar>?, _ name: UnsafePointer<xmlChar>?, from: Int, to end: Int
  ) -> Bool {
    guard let name else { return false }
    var index = from
    func consume(_ text: UnsafePointer<xmlChar>) -> Bool {
      var pointer = text
      while pointer.pointee != 0 {
        guard index < end, source[index] == pointer.pointee else { return false }
        index += 1
        pointer += 1
      }
      return true
    }
    if let prefix {
      guard consume(prefix), index < end, source[index] == UInt8(ascii: ":") else { return false }
      index += 1
    }
    return consume(name) && index == end
  }
}

/// Turns byte offsets into 1-based lines and columns. Columns count Unicode
/// scalars, as libxml2's own error columns do. The line table is built on
/// first use, so a page with no links and no problems never pays for it.
private struct Locator {
  let source: UnsafeBufferPointer<UInt8>
  private var lineStarts: [Int] = []
  /// The last answer: requests come mostly in source order, so the next
  /// column on the same line is counted on from here rather than from the
  /// line start (a minified page is one long line).
  private var last: (offset: Int, line: Int, column: Int) = (0, 1, 1)

  init(source: UnsafeBufferPointer<UInt8>) {
    self.source = source
  }

  mutating func lineAndColumn(at offset: Int) -> (line: Int, column: Int) {
    if lineStarts.isEmpty { buildLineTable() }
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
    }
    let line = low + 1
    let column =
      last.line == line && last.offset <= offset
      ? last.column + scalarCount(from: last.offset, to: offset)
      : scalarCount(from: lineStarts[low], to: offset) + 1
    last = (offset, line, column)
    return (line, column)
  }

  private mutating func buildLineTable() {
    lineStarts.reserveCapacity(source.count / 32 + 1)
    lineStarts.append(0)
    guard let base = source.baseAddress else { return }
    var index = 0
    while let newline = memchr(base + index, Int32(UInt8(ascii: "\n")), source.count - index) {
      index = base.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
      lineStarts.append(index)
    }
  }

  /// Bytes that start a UTF-8 sequence, i.e. are not continuation bytes.
  private func scalarCount(from start: Int, to end: Int) -> Int {
    guard let base = source.baseAddress else { return 0 }
    var count = 0
    // Branch-free with wrapping arithmetic, so the compiler can vectorize it.
    for index in start..<min(end, source.count) { count &+= base[index] & 0xC0 == 0x80 ? 0 : 1 }
    return count
  }
}

// MARK: - Names

/// The element and attribute names the checks look at.
private enum KnownName: String, CaseIterable {
  // Elements (`style` and `form` are attributes too).
  case html, head, title, meta, template, img, script, style, link, object, label, output, td, th, input
  case button, fieldset, select, textarea, image, use, feImage
  // Attributes.
  case id, alt, type, rel, href, src, poster, data, action, formaction, srcset, lang, name, content
  case `for`, list, headers, form, popovertarget, commandfor
  case ariaControls = "aria-controls"
  case ariaLabelledBy = "aria-labelledby"
  case ariaDescribedBy = "aria-describedby"
  case ariaOwns = "aria-owns"
  case ariaFlowTo = "aria-flowto"
  case ariaDetails = "aria-details"
  case ariaErrorMessage = "aria-errormessage"
  case ariaActiveDescendant = "aria-activedescendant"
  /// `xlink:href`, under its own name when its prefix is undeclared (an
  /// error libxml2 reports) or, after the namespace check, when declared.
  case xlinkHref = "xlink:href"
}

/// Tells which `KnownName` a node has by comparing pointers, not text. The
/// parser interns every element and attribute name in the document's
/// dictionary, so looking each known name up there once per page turns the
/// per-node string comparisons into a small pointer-keyed table lookup.
private struct InternedNames {
  private static let slotCount = 256
  private var keys = [UInt](repeating: 0, count: slotCount)
  private var values = [KnownName?](repeating: nil, count: slotCount)
  private let hasDictionary: Bool

  init(_ dictionary: xmlDictPtr?) {
    hasDictionary = dictionary != nil
    guard let dictionary else { return }
    for name in KnownName.allCases {
      // An attribute with an undeclared prefix is interned as a qualified
      // name, which the dictionary hashes differently from plain text.
      let interned =
        name == .xlinkHref
        ? xmlDictQLookup(dictionary, "xlink", "href") : xmlDictExists(dictionary, name.rawValue, -1)
      guard let interned else { continue }
      let key = UInt(bitPattern: interned)
      var slot = Self.slot(for: key)
      while keys[slot] != 0 { slot = (slot + 1) % Self.slotCount }
      keys[slot] = key
      values[slot] = name
    }
  }

  subscript(element: xmlNodePtr) -> KnownName? { lookup(element.pointee.name) }
  subscript(attribute: xmlAttrPtr) -> KnownName? { lookup(attribute.pointee.name) }

  private func lookup(_ name: UnsafePointer<xmlChar>?) -> KnownName? {
    guard let name else { return nil }
    // Without a dictionary names are separate copies: compare the text.
    guard hasDictionary else { return KnownName(rawValue: String(cString: name)) }
    let key = UInt(bitPattern: name)
    var slot = Self.slot(for: key)
    while keys[slot] != 0 {
      if keys[slot] == key { return values[slot] }
      slot = (slot + 1) % Self.slotCount
    }
    return nil
  }

  private static func slot(for key: UInt) -> Int {
    Int(truncatingIfNeeded: ((key >> 3) &* 0x9E37_79B9_7F4A_7C15) >> 56) % slotCount
  }
}

// MARK: - Tree helpers

/// `prefix:name` as written, for messages.
private func qualifiedName(_ node: xmlNodePtr) -> String {
  let name = node.pointee.name.map { String(cString: $0) } ?? ""
  guard let prefix = node.pointee.ns?.pointee.prefix else { return name }
  return String(cString: prefix) + ":" + name
}

private func attributeValue(_ attribute: xmlAttrPtr) -> String {
  guard let text = attribute.pointee.children else { return "" }
  if text.pointee.next == nil, text.pointee.type == XML_TEXT_NODE, let content = text.pointee.content {
    return String(cString: content)
  }
  guard let value = xmlNodeListGetString(attribute.pointee.doc, text, 1) else { return "" }
  defer { generate_xmlFree(value) }
  return String(cString: value)
}

/// The value of an attribute with no namespace, or nil when absent.
private func attributeValue(_ element: xmlNodePtr, _ wanted: KnownName) -> String? {
  var property = element.pointee.properties
  while let attribute = property {
    property = attribute.pointee.next
    if attribute.pointee.ns == nil, let name = attribute.pointee.name, xmlStrEqual(name, wanted.rawValue) != 0
    {
      return attributeValue(attribute)
    }
  }
  return nil
}

private func textContent(_ element: xmlNodePtr) -> String {
  var text = ""
  var child = element.pointee.children
  while let node = child {
    child = node.pointee.next
    if node.pointee.type == XML_TEXT_NODE || node.pointee.type == XML_CDATA_SECTION_NODE,
      let content = node.pointee.content
    {
      text += String(cString: content)
    }
  }
  return text
}

private func firstElementChild(_ node: xmlNodePtr) -> xmlNodePtr? {
  var child = node.pointee.children
  while let candidate = child, candidate.pointee.type != XML_ELEMENT_NODE { child = candidate.pointee.next }
  return child
}

private func nextElementSibling(_ node: xmlNodePtr) -> xmlNodePtr? {
  var sibling = node.pointee.next
  while let candidate = sibling, candidate.pointee.type != XML_ELEMENT_NODE {
    sibling = candidate.pointee.next
  }
  return sibling
}

// MARK: - HTML facts

private func isASCIIWhitespace(_ byte: UInt8) -> Bool {
  byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
}

/// Calls `body` with each run of non-whitespace in `text`, without
/// building an array.
private func forEachToken(in text: String, _ body: (String) -> Void) {
  let bytes = text.utf8
  var index = bytes.startIndex
  while index != bytes.endIndex {
    guard !isASCIIWhitespace(bytes[index]) else {
      index = bytes.index(after: index)
      continue
    }
    let start = index
    while index != bytes.endIndex, !isASCIIWhitespace(bytes[index]) { index = bytes.index(after: index) }
    body(String(text[start..<index]))
  }
}

private func isBlank(_ text: String?) -> Bool {
  text?.utf8.allSatisfy(isASCIIWhitespace) ?? true
}

/// `onclick`, `onload`…: every HTML and SVG event-handler attribute.
private func isEventHandler(_ name: UnsafePointer<xmlChar>?) -> Bool {
  guard let name else { return false }
  return name[0] | 0x20 == UInt8(ascii: "o") && name[1] | 0x20 == UInt8(ascii: "n") && name[2] != 0
}

/// Whether the URL's scheme is `javascript:`, in any case.
private func hasJavaScriptScheme(_ url: String) -> Bool {
  let scheme = "javascript:".utf8
  let bytes = url.utf8
  guard bytes.count >= scheme.count else { return false }
  return zip(bytes, scheme).allSatisfy { $0 | 0x20 == $1 | 0x20 }
}

/// Scripts without a `type`, or with a JavaScript one, run; other types
/// (`application/ld+json`) are data blocks, which CSP does not block.
private func isExecutableScript(type: String?) -> Bool {
  guard let type = type.map(URLText.trimmed)?.lowercased(), !type.isEmpty else { return true }
  return [
    "module", "importmap", "text/javascript", "application/javascript", "application/ecmascript",
    "text/ecmascript", "application/x-javascript", "text/jscript",
  ].contains(type)
}

/// `link` relations that make the browser fetch the target, which
/// `default-src 'self'` governs.
private let resourceRelations: Set<String> = [
  "stylesheet", "icon", "apple-touch-icon", "mask-icon", "preload", "modulepreload", "prefetch", "manifest",
]

private func relLoadsResource(_ rel: String) -> Bool {
  var loads = false
  forEachToken(in: rel.lowercased()) { loads = loads || resourceRelations.contains($0) }
  return loads
}

/// A URL with a scheme (`https:`, `data:`) or a host (`//cdn…`) loads from
/// somewhere `default-src 'self'` does not allow — as far as a page can
/// tell without knowing the site's own origin.
private func isOffSite(_ value: String) -> Bool {
  let url = URLText.trimmed(value)
  return url.hasPrefix("//") || URLText.hasScheme(url)
}

private enum IDReferenceKind {
  /// Space-separated ids; an empty list refers to nothing.
  case list
  /// One id, the whole value.
  case single(allowsEmpty: Bool)
}

private func idReferenceKind(attribute: KnownName, element: KnownName?) -> IDReferenceKind? {
  switch attribute {
  case .ariaControls, .ariaLabelledBy, .ariaDescribedBy, .ariaOwns, .ariaFlowTo, .ariaDetails,
    .ariaErrorMessage:
    return .list
  case .ariaActiveDescendant:
    // Widgets commonly start with no active descendant.
    return .single(allowsEmpty: true)
  case .for where element == .label:
    return .single(allowsEmpty: false)
  case .for where element == .output, .headers where element == .td || element == .th:
    return .list
  case .list where element == .input, .popovertarget, .commandfor:
    return .single(allowsEmpty: false)
  case .form:
    switch element {
    case .button, .fieldset, .input, .object, .output, .select, .textarea: return .single(allowsEmpty: false)
    default: return nil
    }
  default:
    return nil
  }
}

/// The URLs of a `srcset` value, following the HTML parsing rules: a
/// candidate is a run of non-space characters (trailing commas end it),
/// then descriptors up to the next comma outside parentheses.
private func srcsetURLs(_ value: String) -> [String] {
  var urls: [String] = []
  let bytes = Array(value.utf8)
  var index = 0
  while index < bytes.count {
    while index < bytes.count, isASCIIWhitespace(bytes[index]) || bytes[index] == UInt8(ascii: ",") {
      index += 1
    }
    guard index < bytes.count else { break }
    let start = index
    while index < bytes.count, !isASCIIWhitespace(bytes[index]) { index += 1 }
    var end = index
    var endedByComma = false
    while end > start, bytes[end - 1] == UInt8(ascii: ",") {
      end -= 1
      endedByComma = true
    }
    if end > start { urls.append(String(decoding: bytes[start..<end], as: UTF8.self)) }
    guard !endedByComma else { continue }
    var depth = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "(") { depth += 1 }
      if byte == UInt8(ascii: ")") { depth = max(depth - 1, 0) }
      if byte == UInt8(ascii: ","), depth == 0 { break }
      index += 1
    }
  }
  return urls
}
