/// The request headers that decide which bytes go back, read the way
/// RFC 9110 says (§12.5.3 for `Accept-Encoding`, §13.1.2 for `If-None-Match`).
enum ContentNegotiation {
  /// Whether a gzip body is acceptable. `gzip;q=0` refuses it even when
  /// `*` would allow it; no header at all means identity only, which is what
  /// curl and wrk send.
  static func acceptsGzip(_ acceptEncoding: String?) -> Bool {
    guard let acceptEncoding else { return false }
    var gzipQuality: Double?
    var wildcardQuality: Double?
    for item in acceptEncoding.split(separator: ",") {
      let parts = item.split(separator: ";").map { $0.trimmingSpaces() }
      guard let coding = parts.first?.lowercased() else { continue }
      var quality = 1.0
      for parameter in parts.dropFirst() where parameter.lowercased().hasPrefix("q=") {
        quality = Double(parameter.dropFirst(2)) ?? 0
      }
      switch coding {
      case "gzip", "x-gzip": gzipQuality = quality
      case "*": wildcardQuality = quality
      default: break
      }
    }
    return (gzipQuality ?? wildcardQuality ?? 0) > 0
  }

  /// Weak comparison, as `If-None-Match` requires: `W/"x"` matches `"x"`.
  static func noneMatch(_ header: String, matches etag: String) -> Bool {
    let wanted = opaque(etag)
    for candidate in header.split(separator: ",") {
      let tag = candidate.trimmingSpaces()
      if tag == "*" || opaque(tag) == wanted { return true }
    }
    return false
  }

  private static func opaque(_ tag: some StringProtocol) -> Substring {
    let text = Substring(tag)
    return text.hasPrefix("W/") ? text.dropFirst(2) : text
  }
}

extension StringProtocol {
  /// Trims spaces and tabs, the only whitespace HTTP lists allow.
  func trimmingSpaces() -> Substring {
    let text = Substring(self)
    let start = text.firstIndex { $0 != " " && $0 != "\t" } ?? text.endIndex
    let end = text.lastIndex { $0 != " " && $0 != "\t" }.map { text.index(after: $0) } ?? start
    return start < end ? text[start..<end] : text[start..<start]
  }
}
