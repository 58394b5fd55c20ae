import CYamlEvents

/// How many values the mapping keys of a YAML text stand for once their
/// aliases are expanded, counted from libyaml's events before Yams
/// composes the text.
///
/// Yams shares an aliased node rather than copying it, and
/// `NodeReader.checkBounds` walks each shared node once, so aliases of
/// aliases ("billion laughs") cost nothing as values. But Yams hashes
/// every mapping key to find duplicates, and hashing a key that is an
/// alias (`? *a9 : 1`) walks its whole expansion: nine lines then hang the
/// build. The events name each anchor where it is defined, so every
/// node's expanded size is a sum over what was read, and a text whose keys
/// pass the budget is refused at the alias that passed it.
enum YAMLExpansion {
  /// The most values all the config's mapping keys may stand for: what
  /// Yams hashes in well under a second.
  static let budget = 1_000_000

  /// The alias at which the keys pass `budget`, or nil. A text libyaml
  /// cannot read is left for Yams to report.
  static func firstKeyOverBudget(in text: String, budget: Int = budget) -> (
    alias: String, line: Int, column: Int
  )? {
    var text = text
    return text.withUTF8 { bytes -> (String, Int, Int)? in
      let parser = UnsafeMutableRawPointer.allocate(byteCount: Int(GENERATE_YAML_PARSER_BYTES), alignment: 16)
      defer { parser.deallocate() }
      guard yaml_parser_initialize(parser) == 1 else { return nil }
      defer { yaml_parser_delete(parser) }
      yaml_parser_set_input_string(parser, bytes.baseAddress, bytes.count)
      // Each open mapping or list: the values it holds so far (capped, so
      // sixty levels of aliases cannot overflow), its anchor, and for a
      // mapping whether its next node is a key.
      struct Open {
        var count = 1
        var anchor: String?
        var isMapping = false
        var expectsKey = false
      }
      let cap = 1 << 60
      var open = [Open()]
      var anchors: [String: Int] = [:]
      var keys = 0
      var lastAlias: (String, Int, Int)?
      var event = generate_yaml_event()
      func name(_ pointer: UnsafeMutablePointer<UInt8>?) -> String? { pointer.map { String(cString: $0) } }
      // A node read whole, added to the mapping or list it is in.
      func add(_ count: Int) -> Bool {
        let top = open.count - 1
        open[top].count = min(open[top].count + count, cap)
        guard open[top].isMapping else { return true }
        let isKey = open[top].expectsKey
        open[top].expectsKey.toggle()
        guard isKey else { return true }
        keys = min(keys + count, cap)
        return keys <= budget
      }
      while true {
        guard yaml_parser_parse(parser, &event) == 1 else { return nil }
        defer { yaml_event_delete(&event) }
        var read: (count: Int, anchor: String?)?
        switch Int(event.type) {
        case Int(GENERATE_YAML_STREAM_END_EVENT):
          return nil
        case Int(GENERATE_YAML_SCALAR_EVENT):
          read = (1, name(event.data.scalar.anchor))
        case Int(GENERATE_YAML_ALIAS_EVENT):
          let anchor = name(event.data.alias.anchor) ?? ""
          lastAlias = ("*" + anchor, Int(event.start_mark.line) + 1, Int(event.start_mark.column) + 1)
          read = (anchors[anchor] ?? 1, nil)
        case Int(GENERATE_YAML_SEQUENCE_START_EVENT):
          open.append(Open(anchor: name(event.data.sequence_start.anchor)))
        case Int(GENERATE_YAML_MAPPING_START_EVENT):
          open.append(Open(anchor: name(event.data.mapping_start.anchor), isMapping: true, expectsKey: true))
        case Int(GENERATE_YAML_SEQUENCE_END_EVENT), Int(GENERATE_YAML_MAPPING_END_EVENT):
          if open.count > 1 {
            let closed = open.removeLast()
            read = (closed.count, closed.anchor)
          }
        default:
          break
        }
        guard let read else { continue }
        if let anchor = read.anchor { anchors[anchor] = read.count }
        if !add(read.count), let lastAlias { return lastAlias }
      }
    }
  }
}
