import Foundation

/// Finds the CSV columns whose cells are lists written with a separator
/// (`rock;pop;indie`, `fantasy|comedy`): a spreadsheet's way of putting
/// several tags in one cell. `init` declares each under the table's
/// `lists:`, so its items are searched and faceted one by one.
enum ListDetection {
  /// What may separate items: not the comma, which ordinary text is full
  /// of ("Smith, John"; "red, white and blue").
  static let separators = [";", "|"]

  struct Found: Equatable {
    var column: String
    var separator: String
    /// Cells holding two items or more, and cells with any value.
    var several: Int
    var filled: Int

    var reason: String {
      "\(YAMLWriter.named(column)) holds lists: \(several) of \(filled) values are items separated by '\(separator)'"
    }
  }

  /// The list columns of a CSV table whose fields are separated by
  /// `fileSeparator` (a `;` file's own separator is never an item's).
  static func lists(in table: Table, fileSeparator: UInt8) -> [Found] {
    table.header.indices.compactMap { column in
      let separators = Self.separators.filter { $0.utf8.first != fileSeparator }
      let found = separators.compactMap { detect(table.columns[column], name: table.header[column], $0) }
      return found.max { $0.several < $1.several }
    }
  }

  /// A column is a list by `separator` when a fifth of its values or more
  /// hold it, the items are short (tags and names, not sentences or
  /// prices), and at least one item recurs in another record: items
  /// shared across records are what makes a list worth filtering by.
  static func detect(_ values: some Collection<String>, name: String, _ separator: String) -> Found? {
    var filled = 0
    var several = 0
    var items = 0
    var characters = 0
    var longest = 0
    var seen = Set<String>()
    var recurs = false
    for original in values where !original.isEmpty {
      filled += 1
      let value = separator == ";" ? withoutEntities(original) : original
      guard value.contains(separator) else { continue }
      several += 1
      var inCell = Set<String>()
      for item in value.components(separatedBy: separator) {
        let item = item.trimmingCharacters(in: .whitespaces)
        guard !item.isEmpty, inCell.insert(item).inserted else { continue }
        items += 1
        characters += item.count
        longest = max(longest, item.count)
        if !seen.insert(item).inserted { recurs = true }
      }
    }
    guard several >= 2, several * 5 >= filled, items > 0, recurs, longest <= 100,
      characters <= items * 40
    else { return nil }
    return Found(column: name, separator: separator, several: several, filled: filled)
  }

  /// The text with the `;` that ends each HTML character reference
  /// (`&amp;`, `&#39;`, `&#x27;`) left out: scraped titles ("Tom &amp;
  /// Jerry") are text, not lists separated by `;`.
  static func withoutEntities(_ value: String) -> String {
    guard value.contains("&") else { return value }
    var result = ""
    var pending: String?
    for character in value {
      if character == "&" {
        if let pending { result += pending }
        pending = "&"
      } else if var reference = pending {
        if character == ";" && reference.count > 1 {
          result += reference
          pending = nil
        } else if character.isASCII
          && (character.isLetter || character.isNumber || (character == "#" && reference == "&")),
          reference.count <= 32
        {
          reference.append(character)
          pending = reference
        } else {
          result += reference
          result.append(character)
          pending = nil
        }
      } else {
        result.append(character)
      }
    }
    if let pending { result += pending }
    return result
  }
}
