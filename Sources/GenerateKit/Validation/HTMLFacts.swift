/// What HTML and CSP say about attribute values, as small pure functions:
/// which attributes run script, which `link` relations load a resource,
/// which attributes name ids, how `srcset` splits into URLs.
enum HTMLFacts {
  /// Space, tab, line feed, form feed, carriage return: HTML's whitespace.
  static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
  }

  /// Calls `body` with each run of non-whitespace in `text`, without
  /// building an array.
  static func forEachToken(in text: String, _ body: (String) -> Void) {
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

  /// Missing, empty or only whitespace.
  static func isBlank(_ text: String?) -> Bool {
    text?.utf8.allSatisfy(isASCIIWhitespace) ?? true
  }

  /// `onclick`, `onload`…: every HTML and SVG event-handler attribute, from
  /// the name's NUL-terminated bytes.
  static func isEventHandler(_ name: UnsafePointer<UInt8>?) -> Bool {
    guard let name else { return false }
    return name[0] | 0x20 == UInt8(ascii: "o") && name[1] | 0x20 == UInt8(ascii: "n") && name[2] != 0
  }

  /// Whether the URL's scheme is `javascript:`, in any case.
  static func hasJavaScriptScheme(_ url: String) -> Bool {
    let scheme = "javascript:".utf8
    let bytes = url.utf8
    guard bytes.count >= scheme.count else { return false }
    return zip(bytes, scheme).allSatisfy { $0 | 0x20 == $1 | 0x20 }
  }

  /// Scripts without a `type`, or with a JavaScript one, run; other types
  /// (`application/ld+json`) are data blocks, which CSP does not block.
  static func isExecutableScript(type: String?) -> Bool {
    guard let type = type.map(URLText.trimmed)?.lowercased(), !type.isEmpty else { return true }
    return [
      "module", "importmap", "text/javascript", "application/javascript", "application/ecmascript",
      "text/ecmascript", "application/x-javascript", "text/jscript",
    ].contains(type)
  }

  /// `link` relations that make the browser fetch the target, which
  /// `default-src 'self'` governs.
  static let resourceRelations: Set<String> = [
    "stylesheet", "icon", "apple-touch-icon", "mask-icon", "preload", "modulepreload", "prefetch", "manifest",
  ]

  static func relLoadsResource(_ rel: String) -> Bool {
    var loads = false
    forEachToken(in: rel.lowercased()) { loads = loads || resourceRelations.contains($0) }
    return loads
  }

  /// `https://covers.example` of `https://Covers.example/a.png`: a CSP
  /// source's scheme, host and port; nil without a scheme and a host.
  static func origin(of value: String) -> String? {
    let url = URLText.trimmed(value)
    guard let colon = url.firstIndex(of: ":") else { return nil }
    let rest = url[url.index(after: colon)...]
    guard rest.hasPrefix("//") else { return nil }
    let authority = rest.dropFirst(2).prefix { $0 != "/" && $0 != "?" && $0 != "#" && $0 != "\\" }
    // Credentials (`user@`) are no part of an origin.
    let host = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
    guard !host.isEmpty else { return nil }
    return url[..<colon].lowercased() + "://" + host.lowercased()
  }

  /// A URL with a scheme (`https:`, `data:`) or a host (`//cdn…`) loads from
  /// somewhere `default-src 'self'` does not allow — as far as a page can
  /// tell without knowing the site's own origin.
  static func isOffSite(_ value: String) -> Bool {
    let url = URLText.trimmed(value)
    return url.hasPrefix("//") || URLText.hasScheme(url)
  }

  enum IDReferenceKind: Equatable {
    /// Space-separated ids; an empty list refers to nothing.
    case list
    /// One id, the whole value.
    case single(allowsEmpty: Bool)
  }

  /// How an attribute names ids on its element, or nil when it names none.
  static func idReferenceKind(attribute: KnownName, element: KnownName?) -> IDReferenceKind? {
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
      case .button, .fieldset, .input, .object, .output, .select, .textarea:
        return .single(allowsEmpty: false)
      default: return nil
      }
    default:
      return nil
    }
  }

  /// The URLs of a `srcset` value, following the HTML parsing rules: a
  /// candidate is a run of non-space characters (trailing commas end it),
  /// then descriptors up to the next comma outside parentheses.
  static func srcsetURLs(_ value: String) -> [String] {
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
}
