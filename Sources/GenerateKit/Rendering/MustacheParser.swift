/// Mustache template text turned into `CompiledTemplate` nodes.
///
/// The rules are swift-mustache's (`Template+Parser.swift` of its 2.x
/// sources), step for step, because sites written for it must render as
/// they did: which lines are standalone (sections, inverted sections,
/// comments, partials, parents, blocks, set-delimiter and pragma tags),
/// the indentation a standalone partial passes on, how a block inside a
/// parent loses its first line's indentation, which characters a name may
/// hold, its transforms (`{{ first(items) }}`) and its `CONTENT_TYPE`
/// pragma. Text is read a `Character` at a time, as swift-mustache reads
/// it, so a `{` joined to a combining mark is text, and `\r\n` is one line
/// break. `CompiledRendererSpecTests` and `MustacheParserTests` compare
/// the result with swift-mustache's on the specification and on every
/// shipped template.
///
/// Where swift-mustache fails on a template with a bare "index out of
/// range" (its `overflow`), this parser says what is unfinished instead;
/// and a `{` that ends the text is text, as the specification has it,
/// where swift-mustache rejects the template.
struct MustacheParser {
  /// A template that does not parse, with where: 1-based line and column
  /// (in characters) and the line's text.
  struct SyntaxError: Error, Equatable, CustomStringConvertible {
    enum Kind: Equatable {
      /// `{{#a}}…{{/b}}`: the names as written.
      case sectionClosedWithOtherName(opened: String, closed: String)
      /// A tag whose name has characters a name may not hold, or no end:
      /// what was expected there.
      case unfinishedTag(expected: String)
      /// `{{a(b}}`, `{{a(b))}}`: the name as written.
      case badFunctionCall(String)
      case sectionNeverClosed(String)
      /// `{{/name}}` with no section open.
      case closesNothing(String)
      case commentNeverClosed
      case invalidSetDelimiter
      case functionOnBlock(String)
      /// Something other than blocks and text inside `{{<parent}}…{{/parent}}`.
      case notABlockInParent(String)
      case invalidPragma
      /// More sections, blocks and parents open at once than the limit.
      case nestedTooDeep(Int)
      case unknownPragma(String)
      /// A letter or digit outside ASCII in a name.
      case nonASCIIName(Character)
      /// `{{>}}`, `{{<}}`.
      case emptyPartialName
    }

    var kind: Kind
    /// Where the tag that fails starts (its start delimiter).
    var line: Int
    var column: Int
    /// The line the error is on, without its line break.
    var lineText: String
    /// What the parser found, and where an open section was opened:
    /// appended to the kind's message.
    var detail = ""

    var message: String { kindMessage + detail }

    private var kindMessage: String {
      switch kind {
      case .sectionClosedWithOtherName(let opened, let closed):
        return
          "section closed with a different name than it was opened with: '\(opened)' is closed as '\(closed)'"
      case .unfinishedTag(let expected):
        return "tag is not closed: expected '\(expected)'"
      case .nonASCIIName(let character):
        return
          "'\(character)' cannot be part of a name: names hold ASCII letters, digits and . - _ ? * (give the value an ASCII name under the collection's fields:)"
      case .badFunctionCall(let name):
        let opened = name.filter { $0 == "(" }.count
        let closed = name.filter { $0 == ")" }.count
        let why =
          opened > closed
          ? ": a ')' is missing" : closed > opened ? ": there is one ')' too many" : ""
        return "'\(name)' is not a name or a function call like first(items)\(why)"
      case .sectionNeverClosed(let name):
        return "section '\(name)' is never closed: expected '{{/\(name)}}' before the end of the template"
      case .closesNothing(let name): return "'\(name)' is closed but was never opened"
      case .commentNeverClosed: return "comment is never closed"
      case .invalidSetDelimiter:
        return
          "invalid set-delimiter tag: write the two new delimiters between '=' signs, apart, as {{=<% %>=}}"
      case .emptyPartialName: return "the partial tag names no partial: write {{> name}}"
      case .functionOnBlock(let name):
        return "block '\(name)' cannot apply a function: a block's name is a plain name, as in {{$title}}"
      case .notABlockInParent(let parent):
        return "parent '\(parent)' may hold only blocks ({{$name}}…{{/name}}) and text"
      case .nestedTooDeep(let limit): return "sections nest more than \(limit) deep"
      case .invalidPragma: return "invalid pragma (write it as {{% CONTENT_TYPE: TEXT}})"
      case .unknownPragma(let text):
        return "unknown pragma '\(text)' (known: CONTENT_TYPE: HTML and CONTENT_TYPE: TEXT)"
      }
    }

    var description: String { "\(line):\(column): \(message)" }

    init(kind: Kind, line: Int, column: Int, lineText: String, detail: String = "") {
      self.kind = kind
      self.line = line
      self.column = column
      self.lineText = lineText
      self.detail = detail
    }
  }

  /// Parses `text`; with `html: false` as if it began with
  /// `{{% CONTENT_TYPE: TEXT}}` (on its own line when the text's first
  /// line is blank), without the columns that prefix would add.
  static func parse(_ text: String, html: Bool = true) throws(SyntaxError) -> CompiledTemplate {
    var parser = MustacheParser(text)
    do {
      var prefix: [Item] = []
      var state = State()
      if !html {
        prefix.append(.node(.contentType(html: false)))
        state.newLine = parser.isStandalone(state)
      }
      let items = try parser.parse(state)
      return CompiledTemplate(nodes: try parser.nodes(prefix + items))
    } catch let failure {
      throw parser.error(failure)
    }
  }

  // MARK: State

  private let text: String
  private var position: String.Index

  private init(_ text: String) {
    self.text = text
    position = text.startIndex
  }

  /// swift-mustache's `ParserState`.
  private struct State {
    var sectionName: String?
    var sectionTransforms: [String] = []
    /// Where the open section's name starts, for an error if it never closes.
    var sectionStart: String.Index?
    /// Where the open section's tag starts, for an error that closes another.
    var sectionTag: String.Index?
    /// Where the delimiters were last changed, if they were.
    var delimitersChanged: String.Index?
    /// Sections, blocks and parents open around this one: each is a
    /// recursion here and when rendering, which must not run out of stack.
    var depth = 0
    var newLine = true
    /// Inside `{{<parent}}…{{/parent}}`, and directly there (not in a block).
    var inParent = false
    var inParentTopLevel = false
    var startDelimiter = "{{"
    var endDelimiter = "}}"
    var parentIndent: Substring?

    func section(
      _ name: String, at start: String.Index, tag: String.Index, newLine: Bool, transforms: [String] = []
    ) -> State {
      var state = self
      state.sectionName = name
      state.sectionTransforms = transforms
      state.sectionStart = start
      state.sectionTag = tag
      state.inParentTopLevel = false
      state.depth += 1
      if !newLine { state.newLine = false }
      return state
    }

    func parent(_ name: String, at start: String.Index, tag: String.Index) -> State {
      var state = self
      state.sectionName = name
      state.sectionTransforms = []
      state.sectionStart = start
      state.sectionTag = tag
      state.depth += 1
      state.newLine = true
      state.inParent = true
      state.inParentTopLevel = true
      return state
    }
  }

  /// A failure and where it is, before it becomes a `SyntaxError`.
  private struct Failure: Error {
    var kind: SyntaxError.Kind
    /// Where the parser was when it failed (nil: its position then).
    var at: String.Index?
    /// The start of the tag that failed, set by the loop that read it.
    var tag: String.Index?
    /// Where the section a closing tag does not close was opened.
    var opened: String.Index?
    /// The delimiters in effect, when they are not `{{ }}`, and where
    /// they were set.
    var delimiters: (start: String, end: String, since: String.Index)?

    init(kind: SyntaxError.Kind, at: String.Index?) {
      self.kind = kind
      self.at = at
    }
  }

  /// What a section's parse gives: nodes, and inside a parent the blocks
  /// it overrides.
  private enum Item {
    case node(CompiledTemplate.Node)
    case definition(String, [Item])
    case text
  }

  private func nodes(_ items: [Item]) throws(Failure) -> [CompiledTemplate.Node] {
    var nodes: [CompiledTemplate.Node] = []
    nodes.reserveCapacity(items.count)
    for item in items {
      switch item {
      case .node(let node): nodes.append(node)
      // Only made directly inside a parent, which keeps them apart.
      case .definition, .text: break
      }
    }
    return nodes
  }

  // MARK: Reading

  private var atEnd: Bool { position == text.endIndex }
  /// The character at the position; NUL at the end, as swift-mustache has it.
  private var current: Character { atEnd ? "\0" : text[position] }

  private mutating func advance() { position = text.index(after: position) }

  private mutating func retreat() { position = text.index(before: position) }

  @discardableResult
  private mutating func read(while predicate: (Character) -> Bool) -> Substring {
    let start = position
    while !atEnd, predicate(text[position]) { advance() }
    return text[start..<position]
  }

  /// Whether `string` comes next (compared as a string of as many
  /// characters), reading it if so; nil when fewer characters are left.
  private mutating func read(_ string: String) -> Bool? {
    guard !string.isEmpty else { return true }
    let count = string.count
    guard let end = text.index(position, offsetBy: count, limitedBy: text.endIndex) else { return nil }
    guard text[position..<end] == string else { return false }
    position = end
    return true
  }

  /// `read(_:)` where running out of text is the given failure.
  private mutating func expect(_ string: String, else kind: SyntaxError.Kind) throws(Failure) -> Bool {
    guard let found = read(string) else { throw Failure(kind: kind, at: nil) }
    return found
  }

  private static func isBlank(_ character: Character) -> Bool { character == " " || character == "\t" }

  // MARK: Templates

  private mutating func parse(_ initial: State) throws(Failure) -> [Item] {
    if initial.depth > TemplateTags.maxDepth {
      throw Failure(kind: .nestedTooDeep(TemplateTags.maxDepth), at: initial.sectionStart)
    }
    var items: [Item] = []
    var state = initial
    var whiteSpaceBefore: Substring = ""
    while !atEnd {
      if state.newLine {
        let whiteSpace = read(while: Self.isBlank)
        // Inside a block of a parent the first line's indentation is the
        // block's own, taken off every line (swift-mustache's
        // `partialDefinitionIndent`).
        if state.inParent, !state.inParentTopLevel {
          if let indent = state.parentIndent {
            whiteSpaceBefore = whiteSpace.dropFirst(indent.count)
          } else {
            state.parentIndent = whiteSpace
          }
        } else {
          whiteSpaceBefore = whiteSpace
        }
      }
      let text = try readTextLine(state)
      // Any line break, as swift-mustache checks: after a start delimiter
      // (`{{` then a line break) too, where the delimiter is dropped.
      if current.isNewline {
        let line = String(whiteSpaceBefore) + text + String(current)
        appendNode(.text(Array(line.utf8)), &items, state)
        state.newLine = true
        advance()
        continue
      }
      if !text.isEmpty {
        appendNode(.text(Array((whiteSpaceBefore + text).utf8)), &items, state)
        whiteSpaceBefore = ""
        state.newLine = false
      }
      if atEnd { break }
      func flushWhiteSpace() {
        if !whiteSpaceBefore.isEmpty {
          appendNode(.text(Array(whiteSpaceBefore.utf8)), &items, state)
          whiteSpaceBefore = ""
        }
      }
      var setNewLine = false
      let sigil = current
      let tagStart = position
      // The tag's start delimiter, where an error in it is reported.
      let delimiterStart = self.text.index(position, offsetBy: -state.startDelimiter.count)
      do throws(Failure) {
        switch sigil {
        case "#", "^":
          advance()
          let nameStart = position
          let (name, transforms, _) = try parseName(state)
          if isStandalone(state) {
            setNewLine = true
          } else {
            flushWhiteSpace()
          }
          let inner = try parse(
            state.section(
              name, at: nameStart, tag: delimiterStart, newLine: setNewLine, transforms: transforms))
          let template = CompiledTemplate(nodes: try nodes(inner))
          let tag = CompiledTemplate.Name(name, transforms: transforms)
          items.append(.node(sigil == "#" ? .section(tag, template) : .inverted(tag, template)))

        case "/":
          advance()
          let nameStart = position
          let (name, transforms, written) = try parseName(state)
          guard name == state.sectionName, transforms == state.sectionTransforms else {
            guard state.sectionName != nil else {
              throw Failure(kind: .closesNothing(written), at: nameStart)
            }
            var failure = Failure(
              kind: .sectionClosedWithOtherName(opened: openedName(state), closed: written), at: nameStart)
            failure.opened = state.sectionTag
            throw failure
          }
          if isStandalone(state) {
            setNewLine = true
          } else {
            flushWhiteSpace()
          }
          return items

        case "!":
          advance()
          try skipComment(state, start: tagStart)
          setNewLine = isStandalone(state)

        case "{", "&":
          flushWhiteSpace()
          advance()
          let (name, transforms, _) = try parseName(state, closing: sigil == "{" ? "}" : "")
          appendNode(
            .variable(CompiledTemplate.Name(name, transforms: transforms), escaped: false), &items, state)

        case ">":
          advance()
          read(while: \.isWhitespace)
          var dynamic = false
          if current == "*" {
            advance()
            dynamic = true
          }
          let name = try parsePartialName(state)
          // As swift-mustache does: the indentation is written as text,
          // and also passed on to indent the partial's later lines.
          if !whiteSpaceBefore.isEmpty { appendNode(.text(Array(whiteSpaceBefore.utf8)), &items, state) }
          var indentation: [UInt8]?
          if isStandalone(state) {
            setNewLine = true
            indentation = Array(whiteSpaceBefore.utf8)
          }
          appendNode(
            dynamic
              ? .dynamicPartial(
                CompiledTemplate.Name(name, transforms: []), indentation: indentation, overrides: nil)
              : .partial(name, indentation: indentation, overrides: nil), &items, state)
          whiteSpaceBefore = ""

        case "<":
          advance()
          read(while: \.isWhitespace)
          let nameStart = position
          let written = try parsePartialName(state)
          let dynamic = written.first == "*"
          let name = dynamic ? String(written.dropFirst()) : written
          if !whiteSpaceBefore.isEmpty { appendNode(.text(Array(whiteSpaceBefore.utf8)), &items, state) }
          if isStandalone(state) { setNewLine = true }
          let inner = try parse(state.parent(written, at: nameStart, tag: delimiterStart))
          var overrides: [String: CompiledTemplate] = [:]
          for item in inner {
            switch item {
            case .definition(let block, let body): overrides[block] = CompiledTemplate(nodes: try nodes(body))
            case .text: break
            case .node: throw Failure(kind: .notABlockInParent(written), at: nameStart)
            }
          }
          let indentation = Array(whiteSpaceBefore.utf8)
          appendNode(
            dynamic
              ? .dynamicPartial(
                CompiledTemplate.Name(name, transforms: []), indentation: indentation, overrides: overrides)
              : .partial(name, indentation: indentation, overrides: overrides), &items, state)
          whiteSpaceBefore = ""

        case "$":
          advance()
          let nameStart = position
          let (name, transforms, written) = try parseName(state)
          guard transforms.isEmpty else { throw Failure(kind: .functionOnBlock(written), at: nameStart) }
          if state.inParentTopLevel {
            if isStandalone(state) { setNewLine = true }
            let inner = try parse(
              state.section(name, at: nameStart, tag: delimiterStart, newLine: setNewLine))
            items.append(.definition(name, inner))
          } else {
            if !whiteSpaceBefore.isEmpty { appendNode(.text(Array(whiteSpaceBefore.utf8)), &items, state) }
            if isStandalone(state) { setNewLine = true }
            let inner = try parse(
              state.section(name, at: nameStart, tag: delimiterStart, newLine: setNewLine))
            appendNode(
              .block(
                name, default: CompiledTemplate(nodes: try nodes(inner)),
                indentation: Array(whiteSpaceBefore.utf8)), &items, state)
            whiteSpaceBefore = ""
          }

        case "=":
          advance()
          state = try setDelimiters(state)
          state.delimitersChanged = delimiterStart
          setNewLine = isStandalone(state)

        case "%":
          advance()
          appendNode(.contentType(html: try pragma(state)), &items, state)
          setNewLine = isStandalone(state)

        default:
          flushWhiteSpace()
          let (name, transforms, _) = try parseName(state)
          appendNode(
            .variable(CompiledTemplate.Name(name, transforms: transforms), escaped: true), &items, state)
        }
      } catch {
        // The innermost tag is the one to fix: an outer one keeps it.
        var failure = error
        if failure.tag == nil {
          failure.tag = delimiterStart
          if let since = state.delimitersChanged {
            failure.delimiters = (state.startDelimiter, state.endDelimiter, since)
          }
        }
        throw failure
      }
      state.newLine = setNewLine
    }
    if let name = state.sectionName {
      throw Failure(kind: .sectionNeverClosed(name), at: state.sectionStart)
    }
    return items
  }

  /// A node. Directly inside a parent, where only blocks count, text is
  /// dropped, and any other node fails the parent once it is read whole
  /// (as swift-mustache does).
  private func appendNode(_ node: CompiledTemplate.Node, _ items: inout [Item], _ state: State) {
    if state.inParentTopLevel, case .text = node {
      items.append(.text)
    } else {
      items.append(.node(node))
    }
  }

  private func openedName(_ state: State) -> String {
    guard let name = state.sectionName else { return "" }
    return state.sectionTransforms.reduce(name) { inner, transform in "\(transform)(\(inner))" }
  }

  /// swift-mustache's `readUntilDelimiterOrNewline`: text up to a line
  /// break (left unread) or past the start of a tag.
  private mutating func readTextLine(_ state: State) throws(Failure) -> String {
    guard let first = state.startDelimiter.first else { return "" }
    var text = ""
    while !atEnd {
      text += read { $0 != "\n" && $0 != "\r\n" && $0 != first }
      if atEnd || current == "\n" || current == "\r\n" { break }
      // A delimiter's first character: a tag, or text. Too few characters
      // left for a delimiter is text too (swift-mustache rejects it).
      if read(state.startDelimiter) == true { break }
      text.append(first)
      advance()
    }
    return text
  }

  private static let nameCharacters = Set<Character>(
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?*")
  private static let nameCharactersWithBrackets = nameCharacters.union(["(", ")"])
  private static let partialNameCharacters = nameCharactersWithBrackets.union(["/"])

  /// A tag's name and transforms: `first(items)` is `items` with
  /// `[first]`, `a(b(c))` is `c` with `[a, b]`; and the name as written.
  /// A triple mustache's `closing` `}` may come before the end delimiter,
  /// as the specification writes it with any delimiters (`<%{name}%>`),
  /// or after it, as swift-mustache reads it (`<%{name%>}`); the two are
  /// the same with `{{ }}`.
  private mutating func parseName(_ state: State, closing: String = "") throws(Failure) -> (
    String, [String], String
  ) {
    read(while: \.isWhitespace)
    let nameStart = position
    let written = String(read(while: Self.nameCharactersWithBrackets.contains))
    read(while: \.isWhitespace)
    // A letter outside ASCII (`{{tïtel}}`, `{{曲}}`) ends the name, as in
    // swift-mustache: say so rather than "unfinished tag".
    if position < text.endIndex, !text[position].isASCII, text[position].isLetter || text[position].isNumber {
      throw Failure(kind: .nonASCIIName(text[position]), at: nil)
    }
    let afterName = position
    let unfinished = Failure(kind: .unfinishedTag(expected: closing + state.endDelimiter), at: afterName)
    if closing.isEmpty || read(closing + state.endDelimiter) != true {
      guard read(state.endDelimiter) == true else { throw unfinished }
      if !closing.isEmpty {
        guard read(closing) == true else { throw unfinished }
      }
    }
    var rest = Substring(written)
    let name = rest.prefix(while: Self.nameCharacters.contains)
    rest = rest.dropFirst(name.count)
    if rest.isEmpty { return (written, [], written) }
    let badCall = Failure(kind: .badFunctionCall(written), at: nameStart)
    guard rest.first == "(" else { throw badCall }
    rest = rest.dropFirst()
    var transforms = [String(name)]
    while true {
      let inner = rest.prefix(while: Self.nameCharacters.contains)
      rest = rest.dropFirst(inner.count)
      switch rest.first {
      case ")":
        // One `)` for each transform, and nothing after them.
        let closing = rest.prefix { $0 == ")" }
        guard closing.count == transforms.count, closing.count == rest.count else {
          throw badCall
        }
        return (String(inner), transforms, written)
      case "(":
        rest = rest.dropFirst()
        transforms.append(String(inner))
      default:
        throw badCall
      }
    }
  }

  private mutating func parsePartialName(_ state: State) throws(Failure) -> String {
    read(while: \.isWhitespace)
    let name = String(read(while: Self.partialNameCharacters.contains))
    read(while: \.isWhitespace)
    let unfinished = Failure(kind: .unfinishedTag(expected: state.endDelimiter), at: position)
    guard read(state.endDelimiter) == true else { throw unfinished }
    guard !name.isEmpty, name != "*" else { throw Failure(kind: .emptyPartialName, at: nil) }
    return name
  }

  /// Past the end delimiter, matched as swift-mustache matches it: after a
  /// partial match the character that broke it is not tried as a new
  /// start, so with `%>` a comment's `%%>` does not end it.
  private mutating func skipComment(_ state: State, start: String.Index) throws(Failure) {
    let end = Array(state.endDelimiter)
    guard !end.isEmpty else { return }
    var matched = 0
    while !atEnd {
      if text[position] == end[matched] {
        matched += 1
        if matched == end.count {
          advance()
          return
        }
      } else {
        matched = 0
      }
      advance()
    }
    throw Failure(kind: .commentNeverClosed, at: start)
  }

  private mutating func setDelimiters(_ state: State) throws(Failure) -> State {
    let invalid = Failure(kind: .invalidSetDelimiter, at: nil)
    read(while: \.isWhitespace)
    let start = read { !$0.isWhitespace }
    guard !atEnd else { throw invalid }
    read(while: \.isWhitespace)
    let end = read { $0 != "=" && !$0.isWhitespace }
    guard !atEnd else { throw invalid }
    read(while: \.isWhitespace)
    guard current == "=" else { throw invalid }
    advance()
    guard read(state.endDelimiter) == true, !start.isEmpty, !end.isEmpty else { throw invalid }
    var state = state
    state.startDelimiter = String(start)
    state.endDelimiter = String(end)
    state.inParentTopLevel = false
    return state
  }

  /// `{{% CONTENT_TYPE: TEXT}}`: whether what follows is HTML.
  private mutating func pragma(_ state: State) throws(Failure) -> Bool {
    let start = position
    let invalid = Failure(kind: .invalidPragma, at: nil)
    read(while: \.isWhitespace)
    let variable = read(while: Self.nameCharacters.contains)
    read(while: \.isWhitespace)
    guard current == ":" else { throw invalid }
    advance()
    read(while: \.isWhitespace)
    let value = read(while: Self.nameCharacters.contains)
    read(while: \.isWhitespace)
    guard read(state.endDelimiter) == true, !variable.isEmpty, !value.isEmpty else { throw invalid }
    guard variable == "CONTENT_TYPE", value == "HTML" || value == "TEXT" else {
      throw Failure(kind: .unknownPragma("\(variable): \(value)"), at: start)
    }
    return value == "HTML"
  }

  /// The rest of the line is blanks, read with its line break: the tag
  /// stood alone on its line, if it also began it.
  private mutating func isStandalone(_ state: State) -> Bool {
    guard state.newLine else { return false }
    if atEnd { return true }
    var probe = position
    while probe < text.endIndex, Self.isBlank(text[probe]) { probe = text.index(after: probe) }
    // Any line break here, `\r` and U+2028 too, as swift-mustache checks.
    guard probe < text.endIndex, text[probe].isNewline else { return false }
    position = text.index(after: probe)
    return true
  }

  // MARK: Errors

  /// The 1-based line and column of a place, with its line's bounds.
  private func place(_ at: String.Index) -> (line: Int, column: Int, lineStart: String.Index) {
    var line = 1
    var lineStart = text.startIndex
    var index = text.startIndex
    while index < at {
      let next = text.index(after: index)
      if text[index].isNewline {
        line += 1
        lineStart = next
      }
      index = next
    }
    return (line, text.distance(from: lineStart, to: at) + 1, lineStart)
  }

  /// The error at the tag that failed (its start delimiter), saying what
  /// the parser found where it failed and, for a closing tag, where the
  /// section it should have closed was opened.
  private func error(_ failure: Failure) -> SyntaxError {
    let failedAt = failure.at ?? position
    let at = failure.tag ?? failedAt
    let (line, column, lineStart) = place(at)
    let lineEnd = text[lineStart...].firstIndex(where: \.isNewline) ?? text.endIndex
    var detail = ""
    switch failure.kind {
    case .unfinishedTag(let expected):
      detail = found(at: failedAt, expected: expected, tag: at)
    case .commentNeverClosed:
      detail = ": expected '\(failure.delimiters?.end ?? "}}")' before the end of the template"
    case .sectionClosedWithOtherName(let opened, _):
      if let open = failure.opened {
        let (openLine, openColumn, _) = place(open)
        detail = " (opened at line \(openLine), column \(openColumn)): write {{/\(opened)}} to close it"
      }
    default:
      break
    }
    if let delimiters = failure.delimiters {
      let (sinceLine, sinceColumn, _) = place(delimiters.since)
      detail +=
        " (the delimiters are '\(delimiters.start) \(delimiters.end)' since the set-delimiter tag at line \(sinceLine), column \(sinceColumn))"
    }
    return SyntaxError(
      kind: failure.kind, line: line, column: column, lineText: String(text[lineStart..<lineEnd]),
      detail: detail)
  }

  /// "after 'name', found '<'; '<' cannot be part of a name …": what an
  /// unfinished tag held where its end delimiter should have been.
  private func found(at: String.Index, expected: String, tag: String.Index) -> String {
    let written = text[tag..<at].trimmingCharacters(in: .whitespacesAndNewlines)
    var result = " after '\(written)'"
    guard at < text.endIndex else { return result + ", found the end of the template" }
    let next = text[at]
    if next.isNewline { return result + ", found a line break" }
    let nameCharacter = Self.nameCharactersWithBrackets.contains(next)
    // A word after a space is shown whole; anything else as many
    // characters as were expected.
    var end = at
    var count = 0
    while end < text.endIndex, !text[end].isNewline,
      nameCharacter ? Self.nameCharactersWithBrackets.contains(text[end]) : count < max(expected.count, 1)
    {
      end = text.index(after: end)
      count += 1
    }
    let shown = text[at..<end]
    result += ", found '\(shown)'"
    if end == text.endIndex { result += " and the end of the template" }
    if nameCharacter, at > tag, text[text.index(before: at)].isWhitespace {
      result += "; a name holds no spaces"
    } else if next == ",", let open = written.firstIndex(of: "(") {
      // `count(a, b)`: Hugo's and Jekyll's functions take several values.
      let name = written.drop { !$0.isLetter }.prefix { $0 != "(" }
      let value = written[written.index(after: open)...]
      result +=
        "; a function takes one value, as in \(name)(\(value)); to apply two, nest them: plusone(\(name)(\(value)))"
    } else if !nameCharacter, !expected.contains(next) {
      result += "; '\(next)' cannot be part of a name (names hold ASCII letters, digits and . - _ ? *)"
    }
    return result
  }
}
