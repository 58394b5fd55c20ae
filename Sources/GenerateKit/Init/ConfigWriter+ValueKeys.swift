/// The `sort:` and `range:` lists `init` writes for the columns it offers
/// (`CollectionInference+ValueKeys`), with the reason in a comment.
extension ConfigWriter {
  func valueKeys(_ keys: [SitePlan.ValueKey]) -> [String] {
    typealias YAML = YAMLWriter
    guard !keys.isEmpty else { return [] }
    var out = ["    # Orders besides relevance (a menu over the results) and spans a token filters to:"]
    for key in keys { out.append(YAML.comment(key.reason, indent: 4)) }
    func entry(_ parts: [String]) -> String { "      - { \(parts.joined(separator: ", ")) }" }
    func common(_ key: SitePlan.ValueKey) -> [String] {
      [
        YAML.flowEntry("id", YAML.scalar(key.id)), YAML.flowEntry("label", YAML.scalar(key.label)),
        YAML.flowEntry("by", YAML.scalar(key.by)),
      ]
    }
    out.append("    sort:")
    out.append(entry(["id: title", "label: Title", "by: title"]))
    for key in keys {
      var parts = common(key)
      if key.descending { parts.append("order: descending") }
      if key.format != .number { parts.append("format: \(key.format.rawValue)") }
      out.append(entry(parts))
    }
    out.append("    range:")
    for key in keys {
      out.append(entry(common(key) + (key.format == .number ? [] : ["format: \(key.format.rawValue)"])))
    }
    return out
  }

  /// What the lines above read back as: the config `init` means.
  static func valueKeys(
    _ plan: SitePlan.Collection, located: (String) -> SiteConfig.Located<String>
  ) -> (sorts: [SiteConfig.ValueKey], ranges: [SiteConfig.ValueKey]) {
    guard !plan.valueKeys.isEmpty else { return ([], []) }
    let place = located("").location
    let title = SiteConfig.ValueKey(
      id: "title", label: "Title", by: located("title"), descending: false, format: .text, location: place)
    let sorts = plan.valueKeys.map {
      SiteConfig.ValueKey(
        id: $0.id, label: $0.label, by: located($0.by), descending: $0.descending,
        format: $0.format == .number ? .text : $0.format, location: place)
    }
    let ranges = plan.valueKeys.map {
      SiteConfig.ValueKey(
        id: $0.id, label: $0.label, by: located($0.by), descending: false, format: $0.format, location: place)
    }
    return ([title] + sorts, ranges)
  }
}
