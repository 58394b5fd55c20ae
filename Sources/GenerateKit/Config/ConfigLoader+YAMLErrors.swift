import Yams

/// libyaml's errors, turned into diagnostics at the place in the file they
/// are about.
extension ConfigLoader {
  /// libyaml reports duplicate keys by name only, at the mapping; each is
  /// found again in the text (a key at the start of a line or after `{` or
  /// `,`) and reported where it is written the second time.
  static func duplicateKeys(_ keys: [String], after line: Int, in text: String, file: String) -> [Diagnostic]
  {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    var diagnostics: [Diagnostic] = []
    for key in keys.sorted() {
      var seen: [(line: Int, column: Int)] = []
      for (index, content) in lines.enumerated() where index + 1 >= line {
        let scalars = Array(content.unicodeScalars)
        let keyScalars = Array(key.unicodeScalars)
        var start = 0
        while start + keyScalars.count <= scalars.count {
          let before = start == 0 ? " " : scalars[start - 1]
          if Array(scalars[start..<start + keyScalars.count]) == keyScalars,
            " {,\t\"'".unicodeScalars.contains(before)
          {
            var end = start + keyScalars.count
            if end < scalars.count, scalars[end] == "\"" || scalars[end] == "'" { end += 1 }
            while end < scalars.count, scalars[end] == " " { end += 1 }
            if end < scalars.count, scalars[end] == ":" { seen.append((index + 1, start + 1)) }
          }
          start += 1
        }
      }
      let place = seen.count > 1 ? seen[1] : (line: line, column: 1)
      let first = seen.first.map { " (first on line \($0.line))" } ?? ""
      diagnostics.append(
        .error(
          at: SourceLocation(file: file, line: place.line, column: place.column),
          "duplicate key '\(key)'\(first)"))
    }
    return diagnostics
  }

  static func diagnostic(for error: YamlError, file: String) -> Diagnostic {
    switch error {
    case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
      .composer(_, let problem, let mark, _):
      return .error(
        at: SourceLocation(file: file, line: mark.line, column: mark.column), "invalid YAML: \(problem)")
    default:
      return .error(at: SourceLocation(file: file), "invalid YAML: \(error)")
    }
  }
}
