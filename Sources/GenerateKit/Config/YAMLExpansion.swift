import CYamlEvents

/// How many values a YAML text stands for once its aliases are expanded,
/// counted from libyaml's events before Yams composes the text.
///
/// Yams shares an aliased node rather than copying it, but it hashes every
/// mapping key to find duplicates, and hashing a key that is an alias
/// (`? *a9 : 1`) walks its whole expansion: nine lines of a "billion
/// laughs" then hang the build. The events name each anchor where it is
/// defined, so the expansion of every node is a sum over what was read,
/// and a text past the budget is refused at the alias that passed it.
enum YAMLExpansion {
  /// The most values a config may stand for, its aliases expanded: ten
  /// times the largest label map `limits:` allows by default, as
  /// `NodeReader.checkBounds` walks.
  static let budget = 10_000_000

  /// The first alias whose expansion takes the text past `budget`, or nil.
  /// A text libyaml cannot read is left for Yams to report.
  static func firstOverBudget(in text: String, budget: Int = budget) -> (
    alias: String, line: Int, column: Int
  )? {
    var text = text
    return text.withUTF8 { bytes -> (String, Int, Int)? in
      let parser = UnsafeMutableRawPointer.allocate(byteCount: Int(GENERATE_YAML_PARSER_BYTES), alignment: 16)
      defer { parser.deallocate() }
      guard yaml_parser_initialize(parser) == 1 else { return nil }
      defer { yaml_parser_delete(parser) }
      yaml_parser_set_input_string(parser, bytes.baseAddress, bytes.count)
      // The values each open mapping or list holds so far, its anchor.
      var open: [(count: Int, anchor: String?)] = [(0, nil)]
      var anchors: [String: Int] = [:]
      // Only an alias can take a text past the budget; the last one read is named.
      var lastAlias: (String, Int, Int)?
      var event = generate_yaml_event()
      func anchorName(_ pointer: UnsafeMutablePointer<UInt8>?) -> String? {
        pointer.map { String(cString: $0) }
      }
      while true {
        guard yaml_parser_parse(parser, &event) == 1 else { return nil }
        defer { yaml_event_delete(&event) }
        var closed: (count: Int, anchor: String?)?
        switch Int(event.type) {
        case Int(GENERATE_YAML_STREAM_END_EVENT):
          return nil
        case Int(GENERATE_YAML_SCALAR_EVENT):
          closed = (1, anchorName(event.data.scalar.anchor))
        case Int(GENERATE_YAML_SEQUENCE_START_EVENT):
          open.append((1, anchorName(event.data.sequence_start.anchor)))
        case Int(GENERATE_YAML_MAPPING_START_EVENT):
          open.append((1, anchorName(event.data.mapping_start.anchor)))
        case Int(GENERATE_YAML_SEQUENCE_END_EVENT), Int(GENERATE_YAML_MAPPING_END_EVENT):
          if open.count > 1 { closed = open.removeLast() }
        case Int(GENERATE_YAML_ALIAS_EVENT):
          let name = anchorName(event.data.alias.anchor) ?? ""
          lastAlias = ("*" + name, Int(event.start_mark.line) + 1, Int(event.start_mark.column) + 1)
          open[open.count - 1].count += anchors[name] ?? 1
          if open[open.count - 1].count > budget { return lastAlias }
        default:
          break
        }
        guard let closed else { continue }
        if let anchor = closed.anchor { anchors[anchor] = closed.count }
        open[open.count - 1].count += closed.count
        if open[open.count - 1].count > budget, let lastAlias { return lastAlias }
      }
    }
  }
}
