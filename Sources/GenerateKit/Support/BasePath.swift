import Foundation

/// The path a site is served under, `/` or `/music/`: one slash at each end,
/// segments that are safe in a URL, an HTML attribute and robots.txt alike.
///
/// The one place base paths are read: the config's `baseURL`, `--base-url`,
/// the link checker and the preview server all go through it.
public struct BasePath: Hashable, Sendable, CustomStringConvertible {
  /// `["music"]` for `/music/`; empty for the root.
  public let segments: [String]

  /// The root, `/`.
  public static let root = BasePath(segments: [])

  init(segments: [String]) { self.segments = segments }

  /// `/` or `/music/`: percent-encoded, with a slash at each end.
  public var path: String {
    segments.isEmpty ? "/" : "/" + segments.map(Self.encode).joined(separator: "/") + "/"
  }

  public var description: String { path }

  /// Why a base path was refused.
  public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
  }

  /// Reads a base path given as `/music/`, `/music`, `music` or a full URL
  /// (`https://example.org/music/`, whose path is kept). Refuses `.` and
  /// `..` segments, and characters that would need escaping in HTML or
  /// robots.txt (quotes, `<`, `>`, spaces, controls, backslashes).
  public init(_ text: String) throws(Problem) {
    var path = text.trimmingCharacters(in: .whitespaces)
    if path.contains("://"), let url = URL(string: path), url.scheme != nil {
      path = url.path
    }
    var segments: [String] = []
    for part in path.split(separator: "/", omittingEmptySubsequences: true) {
      let segment = String(part)
      if segment == "." || segment == ".." {
        throw Problem(description: "a base URL cannot contain '\(segment)' segments")
      }
      for scalar in segment.unicodeScalars where !Self.isAllowed(scalar) {
        let shown =
          scalar.properties.generalCategory == .control
          ? String(format: "U+%04X", scalar.value) : "'\(scalar)'"
        throw Problem(
          description: "a base URL cannot contain \(shown); use letters, digits, '-', '_', '.' and '~'")
      }
      segments.append(segment.removingPercentEncoding ?? segment)
    }
    self.segments = segments
  }

  /// The site-relative form of an absolute path under this base, or nil.
  public func relative(_ absolute: String) -> String? {
    let prefix = path
    if absolute == String(prefix.dropLast()) { return "" }
    return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : nil
  }

  static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII {
      let value = UInt8(scalar.value)
      return (value >= 0x30 && value <= 0x39) || (value >= 0x41 && value <= 0x5A)
        || (value >= 0x61 && value <= 0x7A)
        || "-._~%".utf8.contains(value)
    }
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber,
      .nonspacingMark, .spacingMark:
      return true
    default:
      return false
    }
  }

  static func encode(_ segment: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    var ascii = CharacterSet()
    ascii.insert(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127))
    return segment.addingPercentEncoding(withAllowedCharacters: allowed.intersection(ascii)) ?? segment
  }
}
