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

  /// Which limit bounds the entries of the mapping or list at `path` (the
  /// keys leading to it from the top, `-` for a list's item).
  static func itemLimit(at path: [String]) -> String {
    switch path {
    case ["tables"]: return "tables"
    case ["collections"]: return "collections"
    case ["facets"]: return "facets"
    case ["scopes"]: return "scopes"
    case ["search", "trending"]: return "trending"
    case ["facets", "-", "labels"]: return "labels"
    default: return path.count == 2 && path[0] == "labels" ? "labels" : "configItems"
    }
  }

  /// Checks every string, depth and count in the config against `limits`,
  /// reporting the first node over each; true when all are within them.
  ///
  /// Iterative, with a stack of its own, and it stops descending at
  /// `configDepth`. Aliases (`*name`) share nodes, so a few lines can
  /// stand for a tree of billions of nodes ("billion laughs"); the walk
  /// counts every node it visits and stops past `configNodes` of them,
  /// before any reader goes through that tree.
  mutating func checkBounds(_ root: Node, limits: SiteConfig.Limits) -> Bool {
    let before = diagnostics.count
    // A config expanding to more nodes than its counted limits allow,
    // through aliases: ten times the items a config may hold anywhere.
    let nodeBudget = max(10_000_000, limits.configItems * 10)
    var visited = 0
    var reported: Set<String> = []
    // Looked up once: the walk asks for a limit at every mapping and list.
    let most = Dictionary(
      uniqueKeysWithValues: SiteConfig.Limits.keys.map { ($0.name, limits[keyPath: $0.path]) })
    // Only the first three keys of a path choose a limit (`itemLimit`),
    // and the last names the value: deeper paths keep just those.
    func child(_ path: [String], _ key: String) -> [String] {
      path.count < 3 ? path + [key] : [path[0], "…", key]
    }
    var stack: [(node: Node, path: [String], depth: Int)] = [(root, [], 1)]
    var children: [(node: Node, path: [String], depth: Int)] = []
    func report(_ reader: inout NodeReader, _ name: String, _ node: Node, _ what: String) {
      guard reported.insert(name).inserted else { return }
      reader.fail(node, what + ", " + limits.over(name))
    }
    // Popped from the end: children are pushed last first, so the first
    // value over a limit in the file is the one reported.
    while let (node, path, depth) = stack.popLast() {
      visited += 1
      if visited > nodeBudget {
        fail(
          root,
          "the config holds more than \(nodeBudget) values once its aliases (*name) are expanded; write it without aliases that repeat each other"
        )
        break
      }
      let name = path.last.map { $0 == "-" || $0 == "?" ? "a value" : "'\($0)'" } ?? "the config"
      if depth > limits.configDepth, node.scalar == nil {
        report(&self, "configDepth", node, "\(name) nests \(depth) levels deep")
        continue
      }
      children.removeAll(keepingCapacity: true)
      switch node {
      case .scalar(let scalar):
        let count = scalar.string.utf8.count
        if count > limits.configValueBytes {
          report(&self, "configValueBytes", node, "\(name) is \(count) bytes long")
        }
      case .mapping(let mapping):
        let limit = Self.itemLimit(at: path)
        let allowed = most[limit] ?? limits.configItems
        for (index, (key, value)) in mapping.enumerated() {
          if index == allowed {
            report(&self, limit, key, "\(name) has more than \(allowed) entries")
            break
          }
          children.append((key, child(path, "?"), depth + 1))
          children.append((value, child(path, key.string ?? "?"), depth + 1))
        }
      case .sequence(let sequence):
        let limit = Self.itemLimit(at: path)
        let allowed = most[limit] ?? limits.configItems
        for (index, item) in sequence.enumerated() {
          if index == allowed {
            report(&self, limit, item, "\(name) has more than \(allowed) items")
            break
          }
          children.append((item, child(path, "-"), depth + 1))
        }
      case .alias:
        break
      }
      stack.append(contentsOf: children.reversed())
    }
    return diagnostics.count == before
  }
}
