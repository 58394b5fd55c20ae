import Yams

/// Walks the YAML tree once, collecting every problem instead of stopping
/// at the first.
struct NodeReader {
  let file: String
  var diagnostics: [Diagnostic] = []

  init(file: String) { self.file = file }

  func location(_ node: Node) -> SourceLocation {
    guard let mark = node.mark else { return SourceLocation(file: file) }
    return SourceLocation(file: file, line: mark.line, column: mark.column)
  }

  mutating func fail(_ node: Node, _ message: String) {
    diagnostics.append(.error(at: location(node), message))
  }

  /// The pairs of a mapping, after checking every key is one we know.
  mutating func mapping(_ node: Node, allowed: [String], what: String) -> [String: (key: Node, value: Node)]?
  {
    guard let mapping = node.mapping else {
      fail(node, "\(what) must be a mapping")
      return nil
    }
    var result: [String: (key: Node, value: Node)] = [:]
    for (key, value) in mapping {
      guard let name = key.string else {
        fail(key, "keys in \(what) must be strings")
        continue
      }
      if !allowed.contains(name) {
        let hint = allowed.sorted().joined(separator: ", ")
        fail(key, "unknown key '\(name)' in \(what); expected one of: \(hint)")
        continue
      }
      if result[name] != nil {
        fail(key, "duplicate key '\(name)' in \(what)")
        continue
      }
      result[name] = (key, value)
    }
    return result
  }

  mutating func string(
    _ pairs: [String: (key: Node, value: Node)], _ key: String, in node: Node, what: String
  ) -> String? {
    guard let pair = pairs[key] else {
      fail(node, "missing required key '\(key)' in \(what)")
      return nil
    }
    guard let value = pair.value.scalar?.string else {
      fail(pair.value, "'\(key)' in \(what) must be a string")
      return nil
    }
    return value
  }

  mutating func optionalString(_ pairs: [String: (key: Node, value: Node)], _ key: String, what: String)
    -> String?
  {
    guard let pair = pairs[key] else { return nil }
    guard let value = pair.value.scalar?.string else {
      fail(pair.value, "'\(key)' in \(what) must be a string")
      return nil
    }
    return value
  }

  mutating func located(_ pairs: [String: (key: Node, value: Node)], _ key: String, what: String)
    -> SiteConfig.Located<String>?
  {
    guard let pair = pairs[key] else { return nil }
    guard let value = pair.value.scalar?.string else {
      fail(pair.value, "'\(key)' in \(what) must be a string")
      return nil
    }
    return .init(value: value, location: location(pair.value))
  }

  mutating func bool(
    _ pairs: [String: (key: Node, value: Node)], _ key: String, default value: Bool, what: String
  ) -> Bool {
    guard let pair = pairs[key] else { return value }
    guard let flag = pair.value.bool else {
      fail(pair.value, "'\(key)' in \(what) must be true or false")
      return value
    }
    return flag
  }

  mutating func strings(_ node: Node, what: String) -> [SiteConfig.Located<String>] {
    guard let sequence = node.sequence else {
      fail(node, "\(what) must be a list")
      return []
    }
    var result: [SiteConfig.Located<String>] = []
    for item in sequence {
      guard let text = item.scalar?.string else {
        fail(item, "items of \(what) must be strings")
        continue
      }
      result.append(.init(value: text, location: location(item)))
    }
    return result
  }

  /// An `id` that names files and URLs (`idx/<id>-1.json`, `?kind=<id>`):
  /// lower-case ASCII letters, digits, `-` and `_`, starting with a letter or
  /// digit, so that no id can leave the folder it is written to or need
  /// escaping in a URL.
  mutating func identifier(_ pairs: [String: (key: Node, value: Node)], in node: Node, what: String)
    -> String?
  {
    guard let id = string(pairs, "id", in: node, what: what), let pair = pairs["id"] else { return nil }
    guard Self.isIdentifier(id) else {
      fail(
        pair.value,
        "id '\(id)' of \(what) must be 1 to 64 lower-case letters, digits, '-' or '_', starting with a letter or digit: it names files and URLs"
      )
      return nil
    }
    return id
  }

  static func isIdentifier(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    func allowed(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) }
    guard let first = bytes.first, allowed(first), bytes.count <= 64 else { return false }
    return bytes.allSatisfy { allowed($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
  }
}
