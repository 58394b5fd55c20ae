import Hummingbird

/// Which `Host` headers the preview answers.
///
/// A page on any web site can point its own name at 127.0.0.1 (DNS
/// rebinding) and then read the preview with the browser's same-origin
/// blessing: the browser thinks it talks to `evil.example:8000`. The request
/// still says `Host: evil.example:8000`, so a server on loopback that only
/// answers loopback names cannot be read this way — what Vite and
/// webpack-dev-server do.
enum HostCheck: Sendable, Hashable {
  /// `localhost`, 127.0.0.0/8 and `[::1]`, each with or without a port.
  case loopbackNames
  /// Any name: people reach a server on another address by names this one
  /// cannot know.
  case anyName

  /// The check for a server listening on `address`: loopback names only,
  /// unless the address is one other machines can reach. Naming loopback
  /// explicitly (`--host 127.0.0.1`, `localhost`, `::1`) keeps the check.
  init(listeningOn address: String) {
    self = PreviewServer.isLoopback(address) ? .loopbackNames : .anyName
  }

  /// Whether a request for this host name is answered.
  func allows(_ host: String) -> Bool {
    self == .anyName || Self.isLoopbackName(host)
  }

  /// The request's one `Host` header, or nil when it has none or several.
  /// HTTP/1.1 requires exactly one (RFC 9112, 3.2); with two, this check
  /// and whatever reads the request next could each take a different one.
  static func soleHost(of request: HTTPRequest) -> String? {
    // The HTTP/1 decoder moves the first `Host` into `authority` and leaves
    // any other among the header fields.
    guard let authority = request.authority,
      !request.headerFields.contains(where: { $0.name.canonicalName == "host" })
    else { return nil }
    return authority
  }

  /// A loopback name or address (see `Loopback`), IPv6 in brackets,
  /// optionally followed by `:port`.
  static func isLoopbackName(_ header: String) -> Bool {
    var name = Substring(header)
    if name.hasPrefix("[") {
      guard let close = name.firstIndex(of: "]") else { return false }
      let port = name[name.index(after: close)...]
      guard port.isEmpty || isPort(port) else { return false }
      let address = name[name.index(after: name.startIndex)..<close]
      return address.contains(":") && Loopback.isLoopback(address)
    }
    if let colon = name.firstIndex(of: ":") {
      guard isPort(name[colon...]) else { return false }
      name = name[..<colon]
    }
    return Loopback.isLoopback(name)
  }

  /// `:` and one to five digits.
  private static func isPort(_ text: Substring) -> Bool {
    let digits = text.dropFirst()
    return text.first == ":" && (1...5).contains(digits.count) && digits.allSatisfy(\.isASCIIDigit)
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
