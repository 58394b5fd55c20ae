import Yams

/// `limits:`, and the config's own bounds checked before anything else is
/// read: the length of every string, how deeply mappings and lists nest,
/// and how many entries each holds (`SiteConfig.Limits`). One walk over
/// the tree, so reading a config costs time linear in its size and a
/// config over a bound is refused at the line that crossed it before any
/// stage sees it.
extension NodeReader {
  /// The `limits:` block: whole numbers, each within a range that still
  /// lets a catalogue load.
  mutating func loadLimits(_ node: Node) -> SiteConfig.Limits {
    var limits = SiteConfig.Limits()
    limits.configFile = file
    let keys = SiteConfig.Limits.keys
    guard let pairs = mapping(node, allowed: keys.map(\.name), what: "limits") else { return limits }
    for (name, range, path) in keys {
      guard let pair = pairs[name] else { continue }
      if let number = pair.value.int, range.contains(number) {
        limits[keyPath: path] = number
      } else {
        let unit = name.hasSuffix("Bytes") ? " of bytes" : ""
        fail(
          pair.value,
          "limits.\(name) must be a whole number\(unit) from \(range.lowerBound) to \(range.upperBound)")
      }
    }
    return limits
  }

  /// Where a node is, as far as the limits care: the few places whose
  /// entries have a limit of their own, and everywhere else.
  enum Place {
    case root
    /// The value of a top-level key.
    case top(String)
    case facet
    case search
    case trending
    /// A map of `labels:`, or a facet's own.
    case labelMap
    case other

    /// Which limit bounds the entries of a mapping or list here.
    var limit: String {
      switch self {
      case .top(let key) where ["tables", "collections", "facets", "scopes"].contains(key): return key
      case .trending: return "trending"
      case .labelMap: return "labels"
      default: return "configItems"
      }
    }

    /// The place of an entry (the value of `key`, or a list's item).
    func child(_ key: String?) -> Place {
      switch (self, key) {
      case (.root, let key?): return .top(key)
      case (.top("facets"), nil): return .facet
      case (.top("search"), "trending"): return .trending
      case (.top("labels"), _?): return .labelMap
      case (.facet, "labels"): return .labelMap
      default: return .other
      }
    }
  }

  /// Values that name files or folders.
  static let pathKeys: Set<String> = ["file", "sqlite", "templates"]

  /// The first C0 control other than tab and line breaks, or DEL.
  static func firstC0Control(in text: String) -> Unicode.Scalar? {
    text.unicodeScalars.first {
      ($0.value < 0x20 && !"\t\n\r".unicodeScalars.contains($0)) || $0.value == 0x7F
    }
  }

  /// Checks every string, depth and count in the config against `limits`,
  /// reporting the first node over each, and every string holding a
  /// control character; true when all are within them.
  ///
  /// Iterative, with a stack of its own, and it stops descending at
  /// `configDepth`. Aliases (`*name`) share nodes, so a few lines can
  /// stand for a tree of billions of nodes ("billion laughs"): a mapping
  /// or list met again (the same place in the file) is not walked again,
  /// and the walk stops past 10 million nodes whatever the file holds.
  mutating func checkBounds(_ root: Node, limits: SiteConfig.Limits) -> Bool {
    let before = diagnostics.count
    // Ten times the entries a config may hold in one list or label map.
    let nodeBudget = 10 * max(1_000_000, limits.configItems, limits.labels)
    var visited = 0
    var reported: Set<String> = []
    // Looked up once: the walk asks for a limit at every mapping and list.
    let most = Dictionary(
      uniqueKeysWithValues: SiteConfig.Limits.keys.map { ($0.name, limits[keyPath: $0.path]) })
    struct Seen: Hashable {
      var line: Int
      var column: Int
      var count: Int
    }
    var seen: Set<Seen> = []
    // `key` is the key whose value the node is, for messages.
    var stack: [(node: Node, place: Place, key: String?, depth: Int)] = [(root, .root, nil, 1)]
    var children: [(node: Node, place: Place, key: String?, depth: Int)] = []
    func name(_ key: String?) -> String { key.map { "'\($0)'" } ?? "a value" }
    func report(_ reader: inout NodeReader, _ limit: String, _ node: Node, _ what: String) {
      guard reported.insert(limit).inserted else { return }
      reader.fail(node, what + ", " + limits.over(limit))
    }
    // Popped from the end: children are pushed last first, so the first
    // value over a limit in the file is the one reported.
    while let (node, place, key, depth) = stack.popLast() {
      visited += 1
      if visited > nodeBudget {
        fail(
          root,
          "the config holds more than \(nodeBudget) values once its aliases (*name) are expanded; write it without aliases that repeat each other"
        )
        break
      }
      if depth > limits.configDepth, node.scalar == nil {
        report(&self, "configDepth", node, "\(name(key)) nests \(depth) levels deep")
        continue
      }
      children.removeAll(keepingCapacity: true)
      switch node {
      case .scalar(let scalar):
        let count = scalar.string.utf8.count
        if count > limits.configValueBytes {
          report(&self, "configValueBytes", node, "\(name(key)) is \(count) bytes long")
        }
        // A YAML escape (`"\0"`, `"\x01"`) spells what a page may not hold:
        // libxml2 would blame the template that wrote it. Not in a key or a
        // path, which name files, and a file's name may hold anything.
        if let key, !Self.pathKeys.contains(key), let control = Self.firstC0Control(in: scalar.string) {
          fail(
            node,
            "\(name(key)) contains the control character \(TableBuilder.describe(control)); only tab and line breaks may appear in the config"
          )
        }
      case .mapping(let mapping):
        if let mark = mapping.mark,
          !seen.insert(Seen(line: mark.line, column: mark.column, count: mapping.count)).inserted
        {
          continue
        }
        let limit = place.limit
        let allowed = most[limit] ?? limits.configItems
        for (index, (entryKey, value)) in mapping.enumerated() {
          if index == allowed {
            report(&self, limit, entryKey, "\(name(key)) has more than \(allowed) entries")
            break
          }
          let text = entryKey.string
          children.append((entryKey, .other, nil, depth + 1))
          children.append((value, place.child(text ?? ""), text, depth + 1))
        }
      case .sequence(let sequence):
        if let mark = sequence.mark,
          !seen.insert(Seen(line: mark.line, column: -mark.column, count: sequence.count)).inserted
        {
          continue
        }
        let limit = place.limit
        let allowed = most[limit] ?? limits.configItems
        for (index, item) in sequence.enumerated() {
          if index == allowed {
            report(&self, limit, item, "\(name(key)) has more than \(allowed) items")
            break
          }
          children.append((item, place.child(nil), key, depth + 1))
        }
      case .alias:
        break
      }
      stack.append(contentsOf: children.reversed())
    }
    return diagnostics.count == before
  }
}
