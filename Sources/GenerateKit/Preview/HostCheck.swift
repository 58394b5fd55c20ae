/// Which `Host` headers the preview answers.
///
/// A page on any web site can point its own name at 127.0.0.1 (DNS
/// rebinding) and then read the preview with the browser's same-origin
/// blessing: the browser thinks it talks to `evil.example:8000`. The request
/// still says `Host: evil.example:8000`, so a server on loopback that only
/// answers loopback names cannot be read this way — what Vite and
/// webpack-dev-server do.
public enum HostCheck: Sendable, Hashable {
  /// `localhost`, 127.0.0.0/8 and `[::1]`, each with or without a port.
  case loopbackNames
  /// Any name: the user chose the address with `--host`, and people reach
  /// such a server by names this one cannot know.
  case anyName

  /// Whether a request with this `Host` header is answered. A request with
  /// none (HTTP/1.0) cannot come from a browser, which always sends one.
  public func allows(_ host: String?) -> Bool {
    guard case .loopbackNames = self, let host else { return true }
    return Self.isLoopbackName(host)
  }

  /// `localhost`, `127.x.y.z` or `[::1]`, optionally followed by `:port`.
  static func isLoopbackName(_ header: String) -> Bool {
    var name = Substring(header)
    if name.hasPrefix("[") {
      guard let close = name.firstIndex(of: "]") else { return false }
      let port = name[name.index(after: close)...]
      guard port.isEmpty || isPort(port) else { return false }
      return name[name.index(after: name.startIndex)..<close] == "::1"
    }
    if let colon = name.firstIndex(of: ":") {
      guard isPort(name[colon...]) else { return false }
      name = name[..<colon]
    }
    if name.hasSuffix(".") { name = name.dropLast() }
    if name.lowercased() == "localhost" { return true }
    let octets = name.split(separator: ".", omittingEmptySubsequences: false)
    guard octets.count == 4, octets[0] == "127" else { return false }
    return octets.allSatisfy { octet in
      !octet.isEmpty && octet.count <= 3 && octet.allSatisfy(\.isASCIIDigit)
        && Int(octet).map { $0 <= 255 } == true
    }
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
