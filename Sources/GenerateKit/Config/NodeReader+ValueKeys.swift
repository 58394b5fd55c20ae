import Yams

/// A collection's `sort:` and `range:` lists (docs/configuration.md "Sort
/// and ranges").
extension NodeReader {
  static let valueKeyKeys = ["id", "label", "by", "order", "format"]

  mutating func valueKeys(_ pair: (key: Node, value: Node)?, range: Bool, what: String) -> [SiteConfig
    .ValueKey]
  {
    guard let pair else { return [] }
    let list = range ? "range" : "sort"
    guard let sequence = pair.value.sequence else {
      fail(pair.value, "\(list) in \(what) must be a list of options, each with id, label and by")
      return []
    }
    var result: [SiteConfig.ValueKey] = []
    for item in sequence {
      let itemWhat = "a \(list) option of \(what)"
      guard let pairs = mapping(item, allowed: Self.valueKeyKeys, what: itemWhat),
        let id = identifier(pairs, in: item, what: itemWhat)
      else { continue }
      let label = optionalString(pairs, "label", what: itemWhat) ?? id
      let by = located(pairs, "by", what: itemWhat)
      if pairs["by"] == nil {
        fail(item, "missing required key 'by' in \(itemWhat): the field or expression to \(list) by")
      }
      if result.contains(where: { $0.id == id }), let idNode = pairs["id"]?.value {
        fail(idNode, "duplicate \(list) id '\(id)' in \(what)")
        continue
      }
      var descending = by?.value == "popularity"
      if let order = pairs["order"] {
        switch order.value.scalar?.string {
        case "ascending": descending = false
        case "descending": descending = true
        default:
          fail(order.value, "order of \(list) '\(id)' in \(what) must be ascending or descending")
        }
        if range { fail(order.key, "order applies to sort options, not to range '\(id)' in \(what)") }
      }
      var format: SiteConfig.ValueFormat = range ? .number : .text
      if let written = pairs["format"] {
        let allowed =
          range ? SiteConfig.ValueFormat.allCases.filter { $0 != .text } : SiteConfig.ValueFormat.allCases
        if let text = written.value.scalar?.string, let chosen = SiteConfig.ValueFormat(rawValue: text),
          allowed.contains(chosen)
        {
          format = chosen
        } else {
          let names = allowed.map(\.rawValue).joined(separator: ", ")
          fail(written.value, "format of \(list) '\(id)' in \(what) must be one of: \(names)")
        }
      }
      guard let by else { continue }
      result.append(
        .init(id: id, label: label, by: by, descending: descending, format: format, location: location(item)))
    }
    return result
  }
}
