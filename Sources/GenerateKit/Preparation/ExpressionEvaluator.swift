import Foundation

/// Problems found while evaluating expressions for records — a count out of
/// range, a division by zero — collected from every thread, each with the
/// expression's place in the config and the record it was evaluated for.
final class ExpressionProblems: @unchecked Sendable {
  private let lock = NSLock()
  private var found: [Diagnostic] = []
  private var seen = Set<String>()
  /// One message per expression and problem is enough to fix it.
  static let limit = 50

  func report(_ message: String, at location: SourceLocation, text: String, table: Table, row: Int) {
    lock.withLock {
      guard found.count < Self.limit, seen.insert("\(location)\u{1}\(message)").inserted else { return }
      let place = table.location(row: row, column: table.keyColumn ?? 0)
      found.append(
        .error(
          at: location,
          "in expression '\(text)', for record \(table.key(ofRow: row)) of table '\(table.name)' (\(place)): \(message)"
        ))
    }
  }

  var diagnostics: [Diagnostic] { lock.withLock { found } }

  /// Forgets what was found: a preview renders a prepared site again after
  /// a template edit, and problems of a render that failed must not stay.
  func reset() {
    lock.withLock {
      found.removeAll()
      seen.removeAll()
    }
  }
}

/// Evaluates compiled expressions for one record at a time. Read-only after
/// the compiler has finished, so pages can be rendered on several threads.
struct ExpressionEvaluator: @unchecked Sendable {
  let compiler: ExpressionCompiler
  /// Popularity of a record, for `popular(…)`; nil for tables without a collection.
  var popularity: (Table, Int) -> Double? = { _, _ in nil }
  let problems = ExpressionProblems()
  /// Between groups of thousands, by the site's language ("," in English).
  var groupingSeparator = ","
  /// Before a number's fraction, by the site's language ("." in English).
  var decimalSeparator = "."
  /// `date()`'s formatters, in the site's language.
  var dates = DateText(language: "en")

  func evaluate(_ expression: CompiledExpression, table: Table, row: Int) -> Value {
    var fault: String?
    return evaluate(expression, table: table, row: row, fault: &fault)
  }

  /// `fault` is set by the first problem; the value is then `.null`, and
  /// the nearest `.located` root reports it.
  func evaluate(_ expression: CompiledExpression, table: Table, row: Int, fault: inout String?) -> Value {
    switch expression {
    case .constant(let value):
      return value
    case .located(let inner, let location, let text):
      var innerFault: String?
      let value = evaluate(inner, table: table, row: row, fault: &innerFault)
      guard let innerFault else { return value }
      problems.report(innerFault, at: location, text: text, table: table, row: row)
      return .null
    case .binary(let op, let left, let right):
      let x = evaluate(left, table: table, row: row, fault: &fault)
      let y = evaluate(right, table: table, row: row, fault: &fault)
      // Text joined by `+` is text (`first_name + ' ' + last_name`); other
      // arithmetic on text is a fault, never a silent 0.
      if x.isWords || y.isWords {
        if op == "+" { return .text(x.text + y.text) }
        if fault == nil { fault = "'\(op)' takes numbers, and '\((x.isWords ? x : y).text)' is text" }
        return .null
      }
      let a = x.number ?? 0
      let b = y.number ?? 0
      switch Arithmetic.apply(op, a, b) {
      case .success(let value): return .number(value)
      case .failure(let problem):
        if fault == nil { fault = problem.message }
        return .null
      }
    case .path(let steps, let ending, let endTable, let many):
      return evaluatePath(steps: steps, ending: ending, endTable: endTable, many: many, row: row)
    case .function(let name, let arguments):
      let values = arguments.map { evaluate($0, table: table, row: row, fault: &fault) }
      switch call(name, values) {
      case .success(let value): return value
      case .failure(let problem):
        if fault == nil { fault = problem.message }
        return .null
      }
    }
  }

  func evaluatePath(
    steps: [CompiledExpression.Step], ending: CompiledExpression.Ending, endTable: Table, many: Bool, row: Int
  ) -> Value {
    var rows: [Int32] = [Int32(row)]
    for step in steps {
      switch step {
      case .forward(let table, let column, let target):
        let resolved = compiler.resolvedColumn(table, column: column, target: target)
        var next: [Int32] = []
        next.reserveCapacity(rows.count)
        for current in rows where resolved[Int(current)] >= 0 { next.append(resolved[Int(current)]) }
        rows = next
      case .forwardMany(let links):
        var next: [Int32] = []
        for current in rows { next.append(contentsOf: links.targets(of: Int(current))) }
        rows = next
      case .reverse(let index):
        var next: [Int32] = []
        for current in rows { next.append(contentsOf: index.children(of: Int(current))) }
        rows = next
      }
    }
    let values: [Value]
    switch ending {
    case .column(let column):
      let cells = endTable.columns[column]
      if endTable.numerals[column] != nil {
        values = rows.compactMap { row in
          let text = cells[Int(row)]
          if text.isEmpty { return nil }
          return endTable.numeral(text, column: column).map { .numeral(text, $0) } ?? .text(text)
        }
      } else {
        values = rows.compactMap { cells[Int($0)].isEmpty ? nil : .text(cells[Int($0)]) }
      }
    case .items(let column):
      let cells = endTable.columns[column]
      values = rows.flatMap { Table.items(of: cells[Int($0)]).map(Value.text) }
    case .record:
      values = rows.map { .record(endTable, Int($0)) }
    }
    if many { return .list(values) }
    return values.first ?? .null
  }

  func call(_ name: String, _ arguments: [Value]) -> Result<Value, Arithmetic.Fault> {
    if let index = Arithmetic.countArgument[name], index < arguments.count,
      let value = arguments[index].number,
      let problem = Arithmetic.checkCount(value, function: name)
    {
      return .failure(Arithmetic.Fault(message: problem))
    }
    if name == "date" {
      return dates.format(
        arguments[0], style: arguments.count > 1 ? arguments[1].text : "long",
        language: arguments.count > 2 ? arguments[2].text : nil)
    }
    if name == "duration", let value = arguments[0].number, abs(value) >= 1e15 {
      return .failure(
        Arithmetic.Fault(message: "duration() needs milliseconds below 10^15, not \(Value.format(value))"))
    }
    if name == "thousands", arguments.count > 1, let value = arguments[0].number,
      !value.isFinite || abs(value) >= 1e15
    {
      return .failure(
        Arithmetic.Fault(message: "thousands() needs a number below 10^15, not \(Value.format(value))"))
    }
    if name == "thousands", arguments.count == 1, let value = arguments[0].number,
      Arithmetic.whole(value) == nil
    {
      return .failure(
        Arithmetic.Fault(message: "thousands() needs a number below 9×10^18, not \(Value.format(value))"))
    }
    return callChecked(name, arguments)
  }

  func callChecked(_ name: String, _ arguments: [Value]) -> Result<Value, Arithmetic.Fault> {
    let value = callUnchecked(name, arguments)
    if case .number(let number) = value, !number.isFinite {
      return .failure(Arithmetic.Fault(message: "\(name)() gives a number too large to use"))
    }
    return .success(value)
  }

  /// Whether a flag column's value is set: a number other than 0, or
  /// `true`, `yes`, `y`, `t` in any case.
  static func isSet(_ value: Value) -> Bool {
    if let number = value.number { return number != 0 }
    return ["true", "yes", "y", "t"].contains(value.text.lowercased())
  }

  /// Counts are checked before this is called, and the result after.
  private func callUnchecked(_ name: String, _ arguments: [Value]) -> Value {
    let items = arguments[0].items
    switch name {
    case "count":
      return .number(Double(items.count))
    case "sum":
      return .number(items.reduce(0) { $0 + ($1.number ?? 0) })
    case "min":
      return items.compactMap(\.number).min().map(Value.number) ?? .null
    case "max":
      return items.compactMap(\.number).max().map(Value.number) ?? .null
    case "avg":
      let numbers = items.compactMap(\.number)
      return numbers.isEmpty ? .null : .number(numbers.reduce(0, +) / Double(numbers.count))
    case "distinct":
      var seen = Set<String>()
      return .list(items.filter { seen.insert($0.identity).inserted })
    case "first":
      return items.first ?? .null
    case "last":
      return items.last ?? .null
    case "mode":
      return Self.byFrequency(items).first ?? .null
    case "top":
      return .list(Array(Self.byFrequency(items).prefix(Int(arguments[1].number ?? 0))))
    case "limit":
      return .list(Array(items.prefix(Int(arguments[1].number ?? 0))))
    case "join":
      let separator = arguments.count > 1 ? arguments[1].text : ", "
      return .text(items.map(\.text).filter { !$0.isEmpty }.joined(separator: separator))
    case "duration":
      guard let milliseconds = arguments[0].number else { return .null }
      return .text(Self.duration(milliseconds))
    case "round":
      guard let value = arguments[0].number else { return .null }
      let digits = arguments.count > 1 ? Int(arguments[1].number ?? 0) : 0
      var scale = 1.0
      for _ in 0..<max(0, digits) { scale *= 10 }
      // Rounded as the number is written (`Value.written`), so a half
      // rounds up: `round(0.285, 2)` is 0.29, though 0.285 × 100 is
      // 28.499999999999996 in binary.
      let scaled = value * scale
      return .number((Double(Value.written(scaled)) ?? scaled).rounded() / scale)
    case "thousands":
      if arguments.count > 1 {
        guard let value = arguments[0].number else { return .null }
        let digits = min(9, max(0, Int(arguments[1].number ?? 0)))
        return .text(
          Self.thousands(value, digits: digits, grouping: groupingSeparator, decimal: decimalSeparator))
      }
      guard let value = arguments[0].number.flatMap(Arithmetic.whole) else { return .null }
      return .text(Self.thousands(value, separator: groupingSeparator))
    case "popular":
      let ranked = items.enumerated().map { (offset: $0.offset, value: $0.element, score: score($0.element)) }
      return .list(
        ranked.sorted { $0.score != $1.score ? $0.score > $1.score : $0.offset < $1.offset }.map(\.value))
    case "plural":
      let count = arguments[0].number ?? Double(items.count)
      let word = count == 1 ? arguments[1].text : arguments[2].text
      let number =
        count.rounded() == count && abs(count) < 1e15
        ? Self.thousands(Int64(count), separator: groupingSeparator) : Value.written(count)
      return .text("\(number) \(word)")
    case "year":
      return .text(String(arguments[0].text.prefix(4)))
    case "flags":
      // Name, value, name, value…: a name where its value is set (a number
      // other than 0, or true, yes, y, t).
      return .list(
        stride(from: 0, to: arguments.count - 1, by: 2).compactMap { index in
          Self.isSet(arguments[index + 1]) ? arguments[index] : nil
        })
    case "label":
      guard let map = compiler.labels[arguments[1].text] else { return arguments[0] }
      return Self.relabel(arguments[0], map)
    default:
      return .null
    }
  }

  /// A value through a label map, item by item; values the map does not
  /// name pass through unchanged.
  static func relabel(_ value: Value, _ map: [String: String]) -> Value {
    switch value {
    case .null: return .null
    case .list(let values): return .list(values.map { relabel($0, map) })
    default: return map[value.text].map(Value.text) ?? value
    }
  }

  func score(_ value: Value) -> Double {
    guard case .record(let table, let row) = value else { return 0 }
    return popularity(table, row) ?? 0
  }

  /// Most frequent first; ties keep the order of first appearance.
  static func byFrequency(_ items: [Value]) -> [Value] {
    var counts: [String: (count: Int, first: Int, value: Value)] = [:]
    for (index, item) in items.enumerated() {
      let key = item.identity
      if let existing = counts[key] {
        counts[key] = (existing.count + 1, existing.first, existing.value)
      } else {
        counts[key] = (1, index, item)
      }
    }
    return counts.values.sorted { $0.count != $1.count ? $0.count > $1.count : $0.first < $1.first }.map(
      \.value)
  }

  /// `5:43`; past an hour `243 hr 48 min`, as Apple Music gives a
  /// playlist's length (seconds stop mattering at that scale).
  /// `5:43`, `1 hr 2 min`; a negative duration keeps its sign in front
  /// (`-0:05`), never inside (`0:0-5`).
  static func duration(_ milliseconds: Double) -> String {
    if milliseconds < 0, Int((-milliseconds / 1000).rounded()) > 0 { return "-" + duration(-milliseconds) }
    let total = Int((milliseconds / 1000).rounded())
    let hours = total / 3600
    let minutes = (total % 3600) / 60
    let seconds = total % 60
    let ss = seconds < 10 ? "0\(seconds)" : "\(seconds)"
    if hours > 0 { return minutes > 0 ? "\(hours) hr \(minutes) min" : "\(hours) hr" }
    return "\(minutes):\(ss)"
  }

  /// `1,299.50`: rounded to `digits` after the decimal mark, which it
  /// always writes that many of, and grouped as `thousands` groups
  /// (a price, `thousands(price, 2)`). No sign on a value that rounds to 0.
  static func thousands(_ value: Double, digits: Int, grouping: String, decimal: String) -> String {
    let text = String(format: "%.\(digits)f", abs(value))
    let parts = text.split(separator: ".", maxSplits: 1)
    var result = thousands(Int64(parts[0]) ?? 0, separator: grouping)
    if parts.count > 1 { result += decimal + parts[1] }
    let zero = text.allSatisfy { $0 == "0" || $0 == "." }
    return value < 0 && !zero ? "-" + result : result
  }

  static func thousands(_ value: Int64, separator: String = ",") -> String {
    let digits = String(value.magnitude)
    var result = ""
    for (index, character) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { result.append(separator) }
      result.append(character)
    }
    return value < 0 ? "-" + result : result
  }
}
