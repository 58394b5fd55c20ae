import Yams

/// One built-in catalogue, `Templates/strings/<language>.yml`, read from
/// the theme the binary carries: each key's text, a count's forms as
/// `key.category`.
struct Catalogue: Sendable {
  var texts: [String: String]
  /// The keys in the file's order (English's order is the one shown in messages).
  var keys: [String]
  var counted: Set<String>

  static let folder = "strings/"

  /// Every built-in catalogue by language code, read once.
  static let all: [String: Catalogue] = {
    var catalogues: [String: Catalogue] = [:]
    for file in EmbeddedTheme.files where file.path.hasPrefix(folder) && file.path.hasSuffix(".yml") {
      let code = String(file.path.dropFirst(folder.count).dropLast(".yml".count))
      catalogues[code] = Catalogue(yaml: file.text)
    }
    return catalogues
  }()

  static var english: Catalogue { all["en"] ?? Catalogue(texts: [:], keys: [], counted: []) }

  init(texts: [String: String], keys: [String], counted: Set<String>) {
    (self.texts, self.keys, self.counted) = (texts, keys, counted)
  }

  /// A catalogue's YAML: the theme's own files, checked by `LocalizationTests`,
  /// so anything that is not a key and a text or a mapping of forms is skipped.
  init(yaml: String) {
    (texts, keys, counted) = ([:], [], [])
    guard let node = try? Yams.compose(yaml: yaml), let mapping = node.mapping else { return }
    for (key, value) in mapping {
      guard let name = key.string else { continue }
      keys.append(name)
      if let text = value.string {
        texts[name] = text
      } else if let forms = value.mapping {
        counted.insert(name)
        for (category, form) in forms {
          if let category = category.string, let form = form.string { texts["\(name).\(category)"] = form }
        }
      }
    }
  }
}
