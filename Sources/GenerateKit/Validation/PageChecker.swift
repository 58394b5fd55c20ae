/// Walks one well-formed page's tree once and applies the rules: the page's
/// shape (doctype, `lang`, title, description), ids and the attributes that
/// refer to them (ARIA, `label for`, `#fragment` links; resolved after the
/// walk, so forward references work), alt text, and everything
/// `Content-Security-Policy: default-src 'self'` would block. Collects the
/// page's links for the site-wide check on the way.
struct PageChecker {
  typealias Element = LibXML2.Element
  typealias Attribute = LibXML2.Attribute

  /// What a diagnostic or link points at, resolved to a line and column only
  /// when a problem is reported.
  enum Anchor {
    case element(Element)
    case attribute(Element, Attribute)
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

  static let contentSecurityPolicy = "Content-Security-Policy \"default-src 'self'\""
  static let xhtmlNamespace = "http://www.w3.org/1999/xhtml"
  private var csp: String { Self.contentSecurityPolicy }

  let path: String
  let names: InternedNames
  private var locator: SourceLocator
  private var scopes = [IDScope(parent: nil)]
  private var references: [IDReference] = []
  private(set) var links: [PageLink] = []
  private var found: [(location: SourceLocation, message: String)] = []

  /// Origins the site's `img-src` allows besides its own (the remote
  /// pictures its data names, `PreparedSite.imageOrigins`).
  let imageOrigins: Set<String>
  /// The `'sha256-…'` sources of the site's `style-src`: the inline
  /// stylesheets the build wrote (`InlineStyles`), the only ones allowed.
  let styleHashes: Set<String>

  init(
    path: String, source: UnsafeBufferPointer<UInt8>, names: InternedNames, imageOrigins: Set<String> = [],
    styleHashes: Set<String> = []
  ) {
    self.imageOrigins = imageOrigins
    self.styleHashes = styleHashes
    self.path = path
    self.names = names
    self.locator = SourceLocator(source: source)
  }

  /// Every id outside `<template>` content.
  var documentIDs: Set<String> { Set(scopes[0].ids.keys) }

  /// Runs every check on the page whose root element is `root`.
  mutating func check(root: Element) {
    checkDocumentShape(root: root)
    walk(from: root)
    resolveReferences()
  }

  // MARK: Page shape

  private mutating func checkDocumentShape(root: Element) {
    let doctype = Array("<!DOCTYPE html>".utf8)
    let source = locator.source
    let start = source.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    if !source[start...].starts(with: doctype) {
      report(at: SourceLocation(file: path), "page must start with \"<!DOCTYPE html>\"")
    }

    guard names[root] == .html, root.namespacePrefix == nil else {
      report(.element(root), "the root element must be html, not \(root.qualifiedName)")
      return
    }
    if let namespace = root.namespaceURI, namespace != Self.xhtmlNamespace {
      report(.element(root), "html element's namespace must be \"\(Self.xhtmlNamespace)\" (or left out)")
    }
    if HTMLFacts.isBlank(root.attributeValue("lang")) {
      report(.element(root), "html element needs a non-empty lang attribute")
    }
    guard let head = root.firstElementChild, names[head] == .head else {
      report(.element(root), "html element must start with a head element")
      return
    }
    var hasTitle = false
    var hasDescription = false
    var child = head.firstElementChild
    while let element = child {
      switch names[element] {
      case .title:
        hasTitle = hasTitle || !HTMLFacts.isBlank(element.textContent)
      case .meta:
        if element.attributeValue("name")?.lowercased() == "description" {
          hasDescription = hasDescription || !HTMLFacts.isBlank(element.attributeValue("content"))
        }
      default:
        break
      }
      child = element.nextElementSibling
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
  private mutating func walk(from root: Element) {
    var templates: [Element] = []
    var scope = 0
    var next: Element? = root
    while let element = next {
      let elementName = names[element]
      visit(element, named: elementName, scope: scope)
      if elementName == .template {
        scopes.append(IDScope(parent: scope))
        scope = scopes.count - 1
        templates.append(element)
      }
      if let child = element.firstElementChild {
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
        if let sibling = cursor.nextElementSibling {
          next = sibling
          break
        }
        guard let parent = cursor.parent else { break }
        cursor = parent
      }
    }
  }

  private mutating func visit(_ element: Element, named elementName: KnownName?, scope: Int) {
    var hasAlt = false
    var hasSource = false
    var scriptType: String?
    var linkRel: String?
    var linkHref: (attribute: Attribute, value: String)?

    for attribute in element.attributes {
      guard var attributeName = names[attribute] else {
        if !attribute.hasNamespace, HTMLFacts.isEventHandler(attribute.name) {
          let written = attribute.name.map { String(cString: $0) } ?? ""
          report(
            .attribute(element, attribute),
            "event-handler attribute \(written) is blocked by \(csp); add the listener from a script file")
        }
        continue
      }
      if attribute.hasNamespace {
        // Only `xlink:href` matters among namespaced attributes.
        guard attributeName == .href, let prefix = attribute.namespacePrefix, LibXML2.equals(prefix, "xlink")
        else { continue }
        attributeName = .xlinkHref
      }
      switch attributeName {
      case .id:
        recordID(attribute.value, element: element, attribute: attribute, scope: scope)
      case .alt:
        hasAlt = true
      case .type:
        scriptType = attribute.value
      case .rel:
        linkRel = attribute.value
      case .style:
        report(.attribute(element, attribute), "style attribute is blocked by \(csp); use a class")
      case .href, .xlinkHref:
        let value = attribute.value
        if elementName == .link { linkHref = (attribute, value) }
        let loadsResource =
          elementName == .image || elementName == .use || elementName == .feImage || elementName == .script
        checkURL(
          value, attribute: attributeName, element: element, node: attribute, scope: scope,
          loadsResource: loadsResource)
      case .src, .poster, .data:
        guard attributeName != .data || elementName == .object else { break }
        hasSource = hasSource || attributeName == .src
        // A picture from an origin the site's img-src names is allowed.
        let allowedImage =
          elementName == .img && attributeName == .src
          && HTMLFacts.origin(of: attribute.value).map(imageOrigins.contains) == true
        checkURL(
          attribute.value, attribute: attributeName, element: element, node: attribute, scope: scope,
          loadsResource: !allowedImage)
      case .action, .formaction:
        checkURL(
          attribute.value, attribute: attributeName, element: element, node: attribute, scope: scope,
          loadsResource: false)
      case .srcset:
        for candidate in HTMLFacts.srcsetURLs(attribute.value) {
          checkURL(
            candidate, attribute: attributeName, element: element, node: attribute, scope: scope,
            loadsResource: true)
        }
      default:
        if let kind = HTMLFacts.idReferenceKind(attribute: attributeName, element: elementName) {
          let label = attributeName == .for ? "\(elementName?.rawValue ?? "") for" : attributeName.rawValue
          recordReferences(
            attribute.value, kind: kind, label: label, anchor: .attribute(element, attribute), scope: scope)
        }
      }
    }

    switch elementName {
    case .img where !hasAlt:
      report(.element(element), "img needs an alt attribute (alt=\"\" if it is decorative)")
    case .script
    where !hasSource && HTMLFacts.isExecutableScript(type: scriptType)
      && !HTMLFacts.isBlank(element.textContent):
      report(.element(element), "inline script is blocked by \(csp); move it to a file loaded with src")
    case .style:
      // The browser hashes the element's text as the page holds it.
      let hash = SHA256.cspSource(Array(element.textContent.utf8))
      if !styleHashes.contains(hash) {
        report(
          .element(element),
          "style element is blocked by \(csp) (its hash \(hash) is not in the site's style-src); "
            + "use a stylesheet file, or {{{styles.NAME}}} for one of the theme's")
      }
    case .link:
      if let linkHref, let linkRel, HTMLFacts.relLoadsResource(linkRel), HTMLFacts.isOffSite(linkHref.value) {
        report(
          .attribute(element, linkHref.attribute),
          "href=\"\(linkHref.value)\" is blocked by \(csp); serve the file from the site")
      }
    default:
      break
    }
  }

  // MARK: Ids and references

  private mutating func recordID(_ value: String, element: Element, attribute: Attribute, scope: Int) {
    let anchor = Anchor.attribute(element, attribute)
    if value.isEmpty || value.utf8.contains(where: HTMLFacts.isASCIIWhitespace) {
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
    _ value: String, kind: HTMLFacts.IDReferenceKind, label: String, anchor: Anchor, scope: Int
  ) {
    switch kind {
    case .list:
      HTMLFacts.forEachToken(in: value) { id in
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
  private mutating func resolveReferences() {
    for reference in references {
      if isDefined(reference.id, from: reference.scope) { continue }
      // Browsers try a fragment as written, then percent-decoded.
      if reference.isFragment, let decoded = URLText.percentDecoded(reference.id),
        isDefined(decoded, from: reference.scope)
      {
        continue
      }
      if reference.isFragment {
        report(reference.anchor, "\(reference.attribute)=\"#\(reference.id)\" points to no id on this page")
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
    _ value: String, attribute name: KnownName, element: Element, node: Attribute, scope: Int,
    loadsResource: Bool
  ) {
    let attribute = name.rawValue
    let anchor = Anchor.attribute(element, node)
    // Only the offset: lines and columns are counted for broken links alone.
    links.append(PageLink(target: value, attribute: attribute, offset: offset(of: anchor) ?? 0))
    let url = URLText.trimmed(value)
    if HTMLFacts.hasJavaScriptScheme(url) {
      report(anchor, "javascript: URL is blocked by \(csp); use a button and a script file")
      return
    }
    if loadsResource, HTMLFacts.isOffSite(value) {
      report(anchor, "\(attribute)=\"\(value)\" is blocked by \(csp); serve the file from the site")
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

  /// The byte offset of an element's `<` or an attribute's name.
  private func offset(of anchor: Anchor) -> Int? {
    switch anchor {
    case .element(let element):
      return tagStart(element)
    case .attribute(let element, let attribute):
      guard let start = tagStart(element) else { return nil }
      return locator.attributeStart(prefix: attribute.namespacePrefix, name: attribute.name, inTagAt: start)
        ?? start
    }
  }

  private func tagStart(_ element: Element) -> Int? {
    guard let end = element.startTagEnd else { return nil }
    return locator.tagStart(endingAt: end, prefix: element.namespacePrefix, name: element.name)
  }

  private mutating func location(of anchor: Anchor) -> SourceLocation {
    guard let offset = offset(of: anchor) else {
      // Not expected: every element gets an offset while parsing. Fall back
      // to the line libxml2 keeps.
      let element: Element
      switch anchor {
      case .element(let node), .attribute(let node, _): element = node
      }
      return SourceLocation(file: path, line: max(element.line, 1), column: 1)
    }
    let (line, column) = locator.lineAndColumn(at: offset)
    return SourceLocation(file: path, line: line, column: column)
  }
}
