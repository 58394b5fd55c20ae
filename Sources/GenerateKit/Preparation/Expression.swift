/// A field expression from the config, such as
/// `count(tracks.invoice_lines) * 3 + count(tracks.playlist_tracks)` or
/// `duration(sum(tracks.milliseconds))`.
///
/// Paths walk the relational schema: a column name reads a value, a column
/// declared in `refs` follows the reference to the record it names, and a
/// table name that refers to the current table lists the records that refer
/// to it (`albums` of an artist).
indirect enum Expression: Equatable {
  case number(Double)
  case text(String)
  case path([String], column: Int)
  case call(String, [Expression], column: Int)
  case binary(Character, Expression, Expression)
}

/// A recursive-descent parser for field expressions; errors carry the
/// column inside the expression so they can be mapped back into the config.
struct ExpressionParser {
  struct Failure: Error, Equatable {
    var message: String
    /// 0-based offset into the expression text.
    var offset: Int
  }

  /// Parentheses and calls nested deeper than this, or more operators
  /// than `maxOperators`, are surely a mistake — and would exhaust the
  /// stack of the threads that evaluate expressions.
  static let maxDepth = 64
  static let maxOperators = 256

  let scalars: [Unicode.Scalar]
  var position = 0
  var depth = 0
  var operators = 0

  init(_ text: String) { scalars = Array(text.unicodeScalars) }

  mutating func enter() throws(Failure) {
    depth += 1
    if depth > Self.maxDepth {
      throw Failure(message: "the expression nests more than \(Self.maxDepth) levels deep", offset: position)
    }
  }

  mutating func countOperator() throws(Failure) {
    operators += 1
    if operators > Self.maxOperators {
      throw Failure(message: "the expression has more than \(Self.maxOperators) operators", offset: position)
    }
  }

  static func parse(_ text: String) throws(Failure) -> Expression {
    var parser = ExpressionParser(text)
    let expression = try parser.parseSum()
    parser.skipSpace()
    if parser.position < parser.scalars.count {
      throw Failure(message: unexpected(parser.scalars[parser.position]), offset: parser.position)
    }
    return expression
  }

  mutating func skipSpace() {
    while position < scalars.count && scalars[position].properties.isWhitespace { position += 1 }
  }

  mutating func peek() -> Unicode.Scalar? {
    skipSpace()
    return position < scalars.count ? scalars[position] : nil
  }

  mutating func parseSum() throws(Failure) -> Expression {
    var left = try parseProduct()
    while let next = peek(), next == "+" || next == "-" {
      try countOperator()
      position += 1
      left = .binary(Character(next), left, try parseProduct())
    }
    return left
  }

  mutating func parseProduct() throws(Failure) -> Expression {
    var left = try parseFactor()
    while let next = peek(), next == "*" || next == "/" {
      try countOperator()
      position += 1
      left = .binary(Character(next), left, try parseFactor())
    }
    return left
  }

  /// A name is letters of any script, digits and `_` (`名前`, `année`,
  /// `artist_id`), not starting with a digit. Any other column name is
  /// written in backquotes: `` `release date` ``.
  static func isIdentifier(_ scalar: Unicode.Scalar, first: Bool) -> Bool {
    let properties = scalar.properties
    if scalar == "_" || properties.isAlphabetic { return true }
    if first { return false }
    switch properties.generalCategory {
    case .decimalNumber, .nonspacingMark, .spacingMark, .connectorPunctuation: return true
    default: return false
    }
  }

  mutating func identifier() throws(Failure) -> String {
    let start = position
    if position < scalars.count, scalars[position] == "`" { return try quotedIdentifier() }
    guard position < scalars.count else {
      throw Failure(message: "expression ends too soon", offset: position)
    }
    let next = scalars[position]
    guard Self.isIdentifier(next, first: true) else {
      throw Failure(message: Self.unexpected(next), offset: position)
    }
    while position < scalars.count && Self.isIdentifier(scalars[position], first: false) { position += 1 }
    var name = String.UnicodeScalarView()
    name.append(contentsOf: scalars[start..<position])
    return String(name)
  }

  /// What to say of a character that has no place here: one that could
  /// only be part of a column name gets the way to write such a name.
  static func unexpected(_ scalar: Unicode.Scalar) -> String {
    if "+-*/(),.'\"".unicodeScalars.contains(scalar) || scalar.properties.isWhitespace {
      return "unexpected '\(scalar)'"
    }
    return
      "unexpected '\(scalar)' (write a column name that is not letters, digits and '_' in backquotes, such as `release date`)"
  }

  /// `` `release date` ``: a column name with any characters but a backquote.
  mutating func quotedIdentifier() throws(Failure) -> String {
    let start = position
    position += 1
    var name = String.UnicodeScalarView()
    while position < scalars.count && scalars[position] != "`" {
      name.append(scalars[position])
      position += 1
    }
    guard position < scalars.count else { throw Failure(message: "unterminated `name`", offset: start) }
    position += 1
    guard !name.isEmpty else { throw Failure(message: "empty `name`", offset: start) }
    return String(name)
  }

  mutating func parseFactor() throws(Failure) -> Expression {
    guard let next = peek() else { throw Failure(message: "expression ends too soon", offset: position) }
    if next == "(" {
      try enter()
      position += 1
      let inner = try parseSum()
      guard peek() == ")" else { throw Failure(message: "expected ')'", offset: position) }
      position += 1
      depth -= 1
      return inner
    }
    if next == "'" || next == "\"" {
      let start = position
      position += 1
      var text = String.UnicodeScalarView()
      while position < scalars.count && scalars[position] != next {
        text.append(scalars[position])
        position += 1
      }
      guard position < scalars.count else { throw Failure(message: "unterminated string", offset: start) }
      position += 1
      return .text(String(text))
    }
    if next.properties.numericType != nil && next.isASCII {
      let start = position
      while position < scalars.count
        && (scalars[position].properties.numericType != nil || scalars[position] == ".")
      {
        position += 1
      }
      var digits = String.UnicodeScalarView()
      digits.append(contentsOf: scalars[start..<position])
      guard let value = Double(String(digits)) else { throw Failure(message: "bad number", offset: start) }
      return .number(value)
    }
    let start = position
    let name = try identifier()
    if peek() == "(" {
      try enter()
      defer { depth -= 1 }
      position += 1
      var arguments: [Expression] = []
      if peek() != ")" {
        arguments.append(try parseSum())
        while peek() == "," {
          position += 1
          arguments.append(try parseSum())
        }
      }
      guard peek() == ")" else { throw Failure(message: "expected ',' or ')'", offset: position) }
      position += 1
      return .call(name, arguments, column: start)
    }
    var path = [name]
    while position < scalars.count && scalars[position] == "." {
      position += 1
      path.append(try identifier())
    }
    return .path(path, column: start)
  }
}
