import Foundation

/// A light scan of a Mustache template's tags, run before the template is
/// parsed: it finds partial and parent references (to check they exist and
/// do not include themselves), transforms (to reject unknown ones, which
/// swift-mustache would render as nothing), and how deep sections nest (to
/// refuse what would exhaust the parser's stack).
struct TemplateTags {
  struct Tag {
    /// `#`, `^`, `/`, `>`, `<`, `$`, `&`, `{`, `!`, `=` or nil for a variable.
    var sigil: Character?
    /// The name, transforms included (`uppercased(title)`), trimmed.
    var content: String
    var line: Int
    var column: Int
  }

  /// Transforms swift-mustache knows (its `Transform.swift`).
  static let transforms: Set<String> = [
    "empty", "capitalized", "lowercased", "uppercased", "reversed", "first", "last", "count", "sorted",
    "enumerated", "equalzero", "plusone", "minusone", "even", "odd", "index",
  ]

  /// Deeper than this is surely a mistake, and far below what would
  /// overflow the parser's stack.
  static let maxDepth = 100

  static let trimmed = CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: "}"))

  var tags: [Tag] = []
  /// Set when the template changes its delimiters: the scan then stops, as
  /// it cannot follow them, and the checks cover what came before.
  var changesDelimiters = false

  init(_ text: String) {
    let scalars = Array(text.unicodeScalars)
    var line = 1
    var lineStart = 0
    var index = 0
    while index + 1 < scalars.count {
      let scalar = scalars[index]
      if scalar == "\n" {
        line += 1
        lineStart = index + 1
        index += 1
        continue
      }
      guard scalar == "{", scalars[index + 1] == "{" else {
        index += 1
        continue
      }
      let column = index - lineStart + 1
      var cursor = index + 2
      var sigil: Character?
      if cursor < scalars.count, "#^/><$&{!=".unicodeScalars.contains(scalars[cursor]) {
        sigil = Character(scalars[cursor])
        cursor += 1
      }
      if sigil == "=" {
        changesDelimiters = true
        return
      }
      var content = String.UnicodeScalarView()
      while cursor + 1 < scalars.count && !(scalars[cursor] == "}" && scalars[cursor + 1] == "}") {
        if scalars[cursor] == "\n" {
          line += 1
          lineStart = cursor + 1
        }
        content.append(scalars[cursor])
        cursor += 1
      }
      if sigil == "{" && cursor < scalars.count && scalars[cursor] == "}" { cursor += 1 }
      tags.append(
        Tag(
          sigil: sigil, content: String(content).trimmingCharacters(in: Self.trimmed), line: line,
          column: column))
      index = cursor + 2
    }
  }

  /// `{{> name}}` and `{{< name}}` tags (dynamic `{{>*name}}` ones skipped).
  var references: [Tag] {
    tags.filter { ($0.sigil == ">" || $0.sigil == "<") && !$0.content.isEmpty && !$0.content.hasPrefix("*") }
  }

  /// The references of `references` that are not inside a section
  /// (`{{#name}}`): rendering the template always renders them. A template
  /// that reaches itself only through such references never ends; one
  /// with a section on the way may end, when the data does (a tree, or a
  /// record's `{{#.parent}}`), as swift-mustache renders it.
  var unguardedReferences: [Tag] {
    var open: [Tag] = []
    var found: [Tag] = []
    for tag in tags {
      switch tag.sigil {
      case ">", "<":
        let isReference = !tag.content.isEmpty && !tag.content.hasPrefix("*")
        if isReference, !open.contains(where: { $0.sigil == "#" }) { found.append(tag) }
        if tag.sigil == "<" { open.append(tag) }
      case "#", "^", "$":
        open.append(tag)
      case "/":
        if let last = open.lastIndex(where: { $0.content == tag.content }) { open.removeSubrange(last...) }
      default:
        break
      }
    }
    return found
  }

  /// Transforms the template applies that swift-mustache does not know.
  var unknownTransforms: [(name: String, tag: Tag)] {
    var result: [(name: String, tag: Tag)] = []
    for tag in tags
    where tag.sigil != "!" && tag.sigil != ">" && tag.sigil != "<" && tag.content.contains("(") {
      for part in tag.content.split(separator: "(").dropLast() {
        let name = part.trimmingCharacters(in: .whitespaces)
        if !Self.transforms.contains(name) { result.append((name, tag)) }
      }
    }
    return result
  }

  /// Blocks opened inside a parent's override of a block of the same name
  /// (`{{<layout}}{{$head}}{{$head}}{{/head}}…{{/head}}{{/layout}}`):
  /// where that override is in effect, the inner block renders the
  /// override it is in, which renders it again, without end
  /// (swift-mustache runs out of stack). Mustache has no way to reach the
  /// parent's own default from an override. `TemplateSet.load` reports
  /// those that some use of the template leaves in effect.
  var blocksInTheirOwnOverride: [Tag] {
    var open: [Tag] = []
    var found: [Tag] = []
    for tag in tags {
      switch tag.sigil {
      case "#", "^", "<":
        open.append(tag)
      case "$":
        let overrides = open.indices.contains {
          open[$0].sigil == "$" && open[$0].content == tag.content && $0 > 0 && open[$0 - 1].sigil == "<"
        }
        if overrides { found.append(tag) }
        open.append(tag)
      case "/":
        if let last = open.lastIndex(where: { $0.content == tag.content }) { open.removeSubrange(last...) }
      default:
        break
      }
    }
    return found
  }

  /// Each `{{<parent}}` and `{{>partial}}` this template names, with the
  /// blocks it overrides there (none for a partial).
  var uses: [(name: String, overrides: Set<String>)] {
    var open: [Tag] = []
    var result: [(name: String, overrides: Set<String>)] = []
    var parents: [Int] = []
    for tag in tags {
      switch tag.sigil {
      case ">":
        if !tag.content.hasPrefix("*") { result.append((tag.content, [])) }
      case "<":
        result.append((tag.content, []))
        parents.append(result.count - 1)
        open.append(tag)
      case "#", "^":
        open.append(tag)
      case "$":
        if let parent = parents.last, open.last?.sigil == "<" { result[parent].overrides.insert(tag.content) }
        open.append(tag)
      case "/":
        guard let last = open.lastIndex(where: { $0.content == tag.content }) else { break }
        let closed = open.count - last
        let closedParents = open[last...].filter { $0.sigil == "<" }.count
        open.removeLast(closed)
        parents.removeLast(min(closedParents, parents.count))
      default:
        break
      }
    }
    return result
  }

  /// The first tag that opens a section past `maxDepth`, if any.
  var tooDeep: Tag? {
    var depth = 0
    for tag in tags {
      switch tag.sigil {
      case "#", "^", "$", "<":
        depth += 1
        if depth > Self.maxDepth { return tag }
      case "/":
        depth = max(0, depth - 1)
      default:
        break
      }
    }
    return nil
  }
}
