import CLibXML2

/// The validator's one door to libxml2: parse bytes, hand back a read-only
/// view of the element tree, copy every error out. No other file imports
/// the C module, so the rules, the source locating and the HTML facts can
/// be read — and tested — as plain Swift.
///
/// The views are pointer-sized structs over libxml2's own nodes: walking a
/// page allocates nothing until a rule asks for an attribute's text. They
/// are valid only inside the `parse` call that produced them, where the
/// document is alive (it is freed with `defer` when the call returns).
///
/// Safe to use from several threads at once: every call has its own parser
/// context, and errors go through libxml2's per-thread structured-error
/// handler, which each call sets and then restores.
enum LibXML2 {
  /// The `xmlParserOption` flags this validator may use. `noNetwork` is
  /// always added by `parse`: a page must never make the build fetch a DTD.
  struct ParseOptions: OptionSet {
    let rawValue: Int32

    init(rawValue: Int32) { self.rawValue = rawValue }
    private init(_ option: xmlParserOption) { rawValue = Int32(bitPattern: option.rawValue) }

    /// Never fetch anything (external DTDs, entities) over the network.
    static let noNetwork = ParseOptions(XML_PARSE_NONET)
    /// Store short text nodes inline: fewer allocations per page.
    static let compactTextNodes = ParseOptions(XML_PARSE_COMPACT)
  }

  /// One error as libxml2 reported it, copied out of its callback.
  struct ParseError: Hashable, Sendable {
    /// The groups of libxml2 error codes the validator treats differently.
    enum Kind: Hashable, Sendable {
      /// `&nbsp;` and friends: the XML syntax has no HTML entities.
      case undeclaredEntity
      /// A name was expected after `&` or `<`: a bare `&` or `<`.
      case nameRequired
      /// `<` inside an attribute value.
      case lessThanInAttribute
      /// After this the parser's picture of the element tree is wrong.
      case structural
      case other
    }

    var message: String
    var line: Int
    var column: Int
    var kind: Kind
    var isWarning: Bool
  }

  /// Parses `source` with the XML parser and hands the document (nil when
  /// the bytes are not well-formed) and the errors to `body`. With
  /// `recordingElementOffsets`, every element knows where its start tag ends
  /// (`Element.startTagEnd`).
  static func parse<Result>(
    _ source: UnsafeBufferPointer<UInt8>,
    options: ParseOptions = [.compactTextNodes],
    recordingElementOffsets: Bool,
    _ body: (Document?, [ParseError]) -> Result
  ) -> Result {
    _ = initialized
    guard let base = source.baseAddress, let length = Int32(exactly: source.count) else {
      return body(nil, [])
    }
    guard let context = xmlNewParserCtxt() else { return body(nil, []) }
    defer { xmlFreeParserCtxt(context) }
    if recordingElementOffsets, let sax = context.pointee.sax {
      sax.pointee.startElementNs = recordStartTagEnd
    }

    let collector = ErrorCollector()
    let document: xmlDocPtr? = withExtendedLifetime(collector) {
      let previousHandler = generate_currentStructuredErrorHandler()
      let previousContext = generate_currentStructuredErrorContext()
      xmlSetStructuredErrorFunc(Unmanaged.passUnretained(collector).toOpaque(), collectError)
      defer { xmlSetStructuredErrorFunc(previousContext, previousHandler) }
      let flags = options.union(.noNetwork)
      return UnsafeRawPointer(base).withMemoryRebound(to: CChar.self, capacity: source.count) {
        xmlCtxtReadMemory(context, $0, length, nil, nil, flags.rawValue)
      }
    }
    defer { if let document { xmlFreeDoc(document) } }
    return body(document.map(Document.init), collector.errors)
  }

  /// A parsed document, alive for the length of the `parse` call.
  struct Document {
    fileprivate let pointer: xmlDocPtr

    var root: Element? { xmlDocGetRootElement(pointer).map(Element.init) }

    /// The parser interns every element and attribute name in the
    /// document's dictionary: the interned copy of `name`, if the page uses
    /// it, which `Element.name` and `Attribute.name` then return by identity.
    func internedName(_ name: String) -> UnsafePointer<UInt8>? {
      guard let dictionary = pointer.pointee.dict else { return nil }
      return xmlDictExists(dictionary, name, -1)
    }

    /// The interned `prefix:name` of an attribute whose prefix is undeclared.
    func internedName(prefix: String, _ name: String) -> UnsafePointer<UInt8>? {
      guard let dictionary = pointer.pointee.dict else { return nil }
      return xmlDictQLookup(dictionary, prefix, name)
    }

    var hasDictionary: Bool { pointer.pointee.dict != nil }
  }

  /// An element node.
  struct Element: Equatable {
    fileprivate let pointer: xmlNodePtr

    /// The local name, interned when the document has a dictionary.
    var name: UnsafePointer<UInt8>? { pointer.pointee.name }
    var namespacePrefix: UnsafePointer<UInt8>? { pointer.pointee.ns?.pointee.prefix }
    var namespaceURI: String? { pointer.pointee.ns?.pointee.href.map { String(cString: $0) } }

    /// `prefix:name` as written, for messages.
    var qualifiedName: String {
      let local = name.map { String(cString: $0) } ?? ""
      guard let prefix = namespacePrefix else { return local }
      return String(cString: prefix) + ":" + local
    }

    var parent: Element? {
      guard let parent = pointer.pointee.parent, parent.pointee.type == XML_ELEMENT_NODE else { return nil }
      return Element(pointer: parent)
    }

    var firstElementChild: Element? {
      var child = pointer.pointee.children
      while let candidate = child, candidate.pointee.type != XML_ELEMENT_NODE {
        child = candidate.pointee.next
      }
      return child.map(Element.init)
    }

    var nextElementSibling: Element? {
      var sibling = pointer.pointee.next
      while let candidate = sibling, candidate.pointee.type != XML_ELEMENT_NODE {
        sibling = candidate.pointee.next
      }
      return sibling.map(Element.init)
    }

    var attributes: Attributes { Attributes(upcoming: pointer.pointee.properties) }

    /// The value of the attribute with no namespace called `wanted`, or nil.
    func attributeValue(_ wanted: String) -> String? {
      for attribute in attributes where !attribute.hasNamespace {
        if let name = attribute.name, LibXML2.equals(name, wanted) { return attribute.value }
      }
      return nil
    }

    /// The text of the element's own text and CDATA children.
    var textContent: String {
      var text = ""
      var child = pointer.pointee.children
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

    /// One past the byte offset of the start tag's `>` (see
    /// `recordStartTagEnd`); nil when offsets were not recorded.
    var startTagEnd: Int? {
      guard let recorded = pointer.pointee._private else { return nil }
      return Int(bitPattern: recorded) - 1
    }

    /// The line libxml2 keeps for the element.
    var line: Int { Int(xmlGetLineNo(pointer)) }
  }

  /// An attribute node.
  struct Attribute {
    fileprivate let pointer: xmlAttrPtr

    /// The local name, interned when the document has a dictionary.
    var name: UnsafePointer<UInt8>? { pointer.pointee.name }
    var hasNamespace: Bool { pointer.pointee.ns != nil }
    var namespacePrefix: UnsafePointer<UInt8>? { pointer.pointee.ns?.pointee.prefix }

    /// The value with entities and character references resolved.
    var value: String {
      guard let text = pointer.pointee.children else { return "" }
      if text.pointee.next == nil, text.pointee.type == XML_TEXT_NODE, let content = text.pointee.content {
        return String(cString: content)
      }
      guard let value = xmlNodeListGetString(pointer.pointee.doc, text, 1) else { return "" }
      defer { generate_xmlFree(value) }
      return String(cString: value)
    }
  }

  /// An element's attributes in source order.
  struct Attributes: Sequence, IteratorProtocol {
    fileprivate var upcoming: xmlAttrPtr?

    mutating func next() -> Attribute? {
      guard let current = upcoming else { return nil }
      upcoming = current.pointee.next
      return Attribute(pointer: current)
    }
  }
}

// MARK: - Parser plumbing

extension LibXML2 {
  /// libxml2 builds global tables on first use, which is not thread-safe;
  /// `xmlInitParser()` must run once before threads parse concurrently. A
  /// global's initializer runs exactly once, guarded by `swift_once`.
  static let initialized: Bool = {
    xmlInitParser()
    return true
  }()

  /// Whether a C string spells `text`, without making a Swift string.
  static func equals(_ name: UnsafePointer<UInt8>, _ text: String) -> Bool {
    var pointer = name
    for byte in text.utf8 {
      guard pointer.pointee == byte else { return false }
      pointer += 1
    }
    return pointer.pointee == 0
  }

  /// Codes after which libxml2's picture of the element tree is wrong.
  private static let structuralCodes = Set(
    [
      XML_ERR_DOCUMENT_EMPTY, XML_ERR_DOCUMENT_END, XML_ERR_LT_IN_ATTRIBUTE, XML_ERR_ATTRIBUTE_NOT_STARTED,
      XML_ERR_ATTRIBUTE_WITHOUT_VALUE, XML_ERR_GT_REQUIRED, XML_ERR_LTSLASH_REQUIRED,
      XML_ERR_TAG_NAME_MISMATCH,
      XML_ERR_TAG_NOT_FINISHED,
    ].map { Int32(bitPattern: $0.rawValue) })

  fileprivate static func kind(of code: Int32) -> ParseError.Kind {
    switch code {
    case Int32(bitPattern: XML_ERR_UNDECLARED_ENTITY.rawValue),
      Int32(bitPattern: XML_WAR_UNDECLARED_ENTITY.rawValue):
      .undeclaredEntity
    case Int32(bitPattern: XML_ERR_NAME_REQUIRED.rawValue): .nameRequired
    case Int32(bitPattern: XML_ERR_LT_IN_ATTRIBUTE.rawValue): .lessThanInAttribute
    case _ where structuralCodes.contains(code): .structural
    default: .other
    }
  }
}

/// Collects errors from libxml2's structured-error callback; the context
/// pointer the callback receives points at this object.
private final class ErrorCollector {
  var errors: [LibXML2.ParseError] = []
}

/// The structured-error callback: copies the error out at once (libxml2
/// reuses the struct) into the collector behind the context pointer.
private func collectError(_ context: UnsafeMutableRawPointer?, _ error: xmlErrorPtr?) {
  guard let context, let error else { return }
  let collector = Unmanaged<ErrorCollector>.fromOpaque(context).takeUnretainedValue()
  var message = error.pointee.message.map { String(cString: $0) } ?? "XML error \(error.pointee.code)"
  while let last = message.last, last.isWhitespace { message.removeLast() }
  collector.errors.append(
    LibXML2.ParseError(
      message: message,
      line: Int(error.pointee.line),
      // libxml2 2.9 keeps the column in `int2`.
      column: Int(error.pointee.int2),
      kind: LibXML2.kind(of: error.pointee.code),
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
