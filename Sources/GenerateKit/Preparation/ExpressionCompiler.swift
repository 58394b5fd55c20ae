/// A field expression resolved against the schema once, so evaluating it
/// for a million records does no name lookups.
indirect enum CompiledExpression {
  enum Step {
    /// Follow a reference column to the record it names.
    case forward(Table, column: Int, target: Table)
    /// Follow a list of references to the records it names.
    case forwardMany(ListLinks)
    /// List the records of another table that refer to this one.
    case reverse(ReverseIndex)
  }

  enum Ending {
    case column(Int)
    /// A column of lists: every item of every row reached.
    case items(Int)
    case record
  }

  case constant(Value)
  case path(steps: [Step], ending: Ending, endTable: Table, many: Bool)
  case function(String, [CompiledExpression])
  case binary(Character, CompiledExpression, CompiledExpression)
  /// The root of an expression from the config: where a problem found
  /// while evaluating it is reported.
  case located(CompiledExpression, SourceLocation, text: String)

  /// The columns a `flags(…)` expression names, in its order; else none.
  var flagColumns: [String] {
    switch self {
    case .located(let inner, _, _): return inner.flagColumns
    case .function("flags", let pairs):
      return stride(from: 0, to: pairs.count, by: 2).compactMap { index in
        if case .constant(.text(let name)) = pairs[index] { return name }
        return nil
      }
    default: return []
    }
  }

  var constantNumber: Double? {
    if case .constant(.number(let value)) = self { return value }
    return nil
  }
}

/// Children of each parent row for one (child table, reference column),
/// stored as offsets into one flat array.
final class ReverseIndex: @unchecked Sendable {
  let child: Table
  let column: Int
  let offsets: [Int32]
  let rows: [Int32]

  init(child: Table, column: Int, parent: Table) {
    self.child = child
    self.column = column
    if child.isList(column) {
      let listed = Self.listed(child: child, column: column, parent: parent)
      offsets = listed.offsets
      rows = listed.rows
      return
    }
    var counts = [Int32](repeating: 0, count: parent.count + 1)
    var parentOfChild = [Int32](repeating: -1, count: child.count)
    let values = child.columns[column]
    for row in 0..<child.count {
      guard let parentRow = parent.rowForKey[values[row]] else { continue }
      parentOfChild[row] = Int32(parentRow)
      counts[parentRow + 1] += 1
    }
    for index in 1..<counts.count { counts[index] += counts[index - 1] }
    var fill = counts
    var rows = [Int32](repeating: 0, count: Int(counts[parent.count]))
    for row in 0..<child.count where parentOfChild[row] >= 0 {
      let parentRow = Int(parentOfChild[row])
      rows[Int(fill[parentRow])] = Int32(row)
      fill[parentRow] += 1
    }
    self.offsets = counts
    self.rows = rows
  }

  func children(of row: Int) -> ArraySlice<Int32> {
    rows[Int(offsets[row])..<Int(offsets[row + 1])]
  }

  /// For a list of references: a child is listed under each parent its
  /// list names (once, however often it names it).
  static func listed(child: Table, column: Int, parent: Table) -> (offsets: [Int32], rows: [Int32]) {
    let links = ListLinks(table: child, column: column, target: parent)
    var counts = [Int32](repeating: 0, count: parent.count + 1)
    for row in 0..<child.count {
      for parentRow in links.targets(of: row) { counts[Int(parentRow) + 1] += 1 }
    }
    for index in 1..<counts.count { counts[index] += counts[index - 1] }
    var fill = counts
    var rows = [Int32](repeating: 0, count: Int(counts[parent.count]))
    for row in 0..<child.count {
      for parentRow in links.targets(of: row) {
        rows[Int(fill[Int(parentRow)])] = Int32(row)
        fill[Int(parentRow)] += 1
      }
    }
    return (counts, rows)
  }
}

/// The records each row's list of references names (`"author_ids": [3,
/// 7]` with `refs: { author_ids: authors }`), in the list's order, each
/// once; stored as offsets into one flat array, as `ReverseIndex` is.
final class ListLinks: @unchecked Sendable {
  let offsets: [Int32]
  let rows: [Int32]

  init(table: Table, column: Int, target: Table) {
    var offsets: [Int32] = [0]
    offsets.reserveCapacity(table.count + 1)
    var rows: [Int32] = []
    let values = table.columns[column]
    for row in 0..<table.count {
      let start = rows.count
      for item in Table.items(of: values[row]) {
        guard let targetRow = target.rowForKey[item].map(Int32.init),
          !rows[start...].contains(targetRow)
        else { continue }
        rows.append(targetRow)
      }
      offsets.append(Int32(rows.count))
    }
    self.offsets = offsets
    self.rows = rows
  }

  func targets(of row: Int) -> ArraySlice<Int32> {
    rows[Int(offsets[row])..<Int(offsets[row + 1])]
  }
}

/// Resolves expressions against a dataset; caches reverse indexes and
/// resolved reference columns so each is built once per build.
final class ExpressionCompiler: @unchecked Sendable {
  struct Failure: Error {
    var message: String
    var offset: Int
  }

  static let functions: [String: ClosedRange<Int>] = [
    "count": 1...1, "sum": 1...1, "min": 1...1, "max": 1...1, "avg": 1...1, "distinct": 1...1,
    "first": 1...1, "last": 1...1, "mode": 1...1, "top": 2...2, "limit": 2...2, "join": 1...2,
    "duration": 1...1,
    "round": 1...2, "thousands": 1...2, "popular": 1...1, "year": 1...1, "plural": 3...3, "label": 2...2,
    "flags": 1...64, "date": 1...3,
  ]

  let dataset: Dataset
  /// The config's `labels:` maps, by name, for `label(x, 'name')`.
  let labels: [String: [String: String]]
  private var reverseIndexes: [String: ReverseIndex] = [:]
  private var listLinks: [String: ListLinks] = [:]
  /// `resolved[table][column][row]`: the referenced row, or -1.
  private(set) var resolved: [ObjectIdentifier: [Int: [Int32]]] = [:]

  init(dataset: Dataset, labels: [String: [String: String]] = [:]) {
    self.dataset = dataset
    self.labels = labels
  }

  func compile(_ text: String, table: Table) throws(Failure) -> CompiledExpression {
    let expression: Expression
    do {
      expression = try ExpressionParser.parse(text)
    } catch {
      throw Failure(message: error.message, offset: error.offset)
    }
    return try compile(expression, table: table)
  }

  func compile(_ expression: Expression, table: Table) throws(Failure) -> CompiledExpression {
    switch expression {
    case .number(let value): return .constant(.number(value))
    case .text(let text): return .constant(.text(text))
    case .binary(let op, let left, let right):
      let (a, b) = (try compile(left, table: table), try compile(right, table: table))
      // Constants fold, so `0 - 1` is checked like `-1` would be.
      if let x = a.constantNumber, let y = b.constantNumber {
        switch Arithmetic.apply(op, x, y) {
        case .success(let number): return .constant(.number(number))
        case .failure(let fault): throw Failure(message: fault.message, offset: 0)
        }
      }
      if op == "/", b.constantNumber == 0 { throw Failure(message: "division by zero", offset: 0) }
      return .binary(op, a, b)
    case .call(let name, let arguments, let column):
      guard let arity = Self.functions[name] else {
        let known = Self.functions.keys.sorted().joined(separator: ", ")
        throw Failure(message: "unknown function '\(name)'; known functions: \(known)", offset: column)
      }
      guard arity.contains(arguments.count) else {
        throw Failure(
          message:
            "\(name)() takes \(arity.lowerBound == arity.upperBound ? "\(arity.lowerBound)" : "\(arity.lowerBound) or \(arity.upperBound)") argument(s)",
          offset: column)
      }
      if name == "label" { try checkLabelMap(arguments[1], offset: column) }
      if name == "date" { try checkDateStyle(arguments, offset: column) }
      if name == "flags" { return try compileFlags(arguments, table: table, offset: column) }
      var compiled: [CompiledExpression] = []
      for argument in arguments { compiled.append(try compile(argument, table: table)) }
      if let checked = Arithmetic.countArgument[name], checked < compiled.count,
        let value = compiled[checked].constantNumber
      {
        if let problem = Arithmetic.checkCount(value, function: name) {
          throw Failure(message: problem, offset: column)
        }
      }
      return .function(name, compiled)
    case .path(let names, let column):
      return try compilePath(names, from: table, offset: column)
    }
  }

  /// `flags(Action, Comedy, Drama)`: the names of the columns whose value
  /// is set, as a list — one-hot columns (a 0/1 column per genre, as R's
  /// and pandas' data often has them) read as one field a facet can take.
  /// Each argument is a column of this table; it compiles to its name and
  /// its value, in pairs.
  func compileFlags(_ arguments: [Expression], table: Table, offset: Int) throws(Failure)
    -> CompiledExpression
  {
    var pairs: [CompiledExpression] = []
    for argument in arguments {
      guard case .path(let names, let column) = argument, names.count == 1 else {
        throw Failure(
          message: "flags() takes columns of this table, such as flags(Action, Comedy, Drama)", offset: offset
        )
      }
      pairs.append(.constant(.text(names[0])))
      pairs.append(try compilePath(names, from: table, offset: column))
    }
    return .function("flags", pairs)
  }

  /// `date(x, 'long', 'de')`: a style and a language, each in quotes.
  func checkDateStyle(_ arguments: [Expression], offset: Int) throws(Failure) {
    if arguments.count > 1 {
      guard case .text(let style) = arguments[1] else {
        throw Failure(
          message: "date()'s second argument is a style in quotes, such as 'long', 'short' or 'MMMM y'",
          offset: offset)
      }
      if let problem = DateText.problem(style: style) { throw Failure(message: problem, offset: offset) }
    }
    if arguments.count > 2 {
      guard case .text(let language) = arguments[2] else {
        throw Failure(
          message: "date()'s third argument is a language in quotes, such as 'de'", offset: offset)
      }
      if let problem = DateText.problem(language: language) {
        throw Failure(message: problem, offset: offset)
      }
    }
  }

  /// `label(x, 'status')` names a map under `labels:`, in quotes.
  func checkLabelMap(_ argument: Expression, offset: Int) throws(Failure) {
    let known = labels.keys.sorted()
    let list = known.isEmpty ? "none are declared" : "labels: \(known.joined(separator: ", "))"
    guard case .text(let name) = argument else {
      throw Failure(
        message:
          "label()'s second argument is the name of a map under labels, in quotes, such as 'status' (\(list))",
        offset: offset)
    }
    guard labels[name] != nil else {
      throw Failure(
        message: "label() names '\(name)', which is not declared under labels (\(list))"
          + ClosestName.hint(name, in: known),
        offset: offset)
    }
  }

  func compilePath(_ names: [String], from start: Table, offset: Int) throws(Failure) -> CompiledExpression {
    var table = start
    var steps: [CompiledExpression.Step] = []
    var many = false
    var names = names
    var index = 0
    while index < names.count {
      defer { index += 1 }
      // A nested JSON object's field is one dotted column (`artist.name`):
      // the longest run of names that is a column of this table wins.
      if let width = Self.dottedColumnWidth(names[index...], in: table) {
        names.replaceSubrange(
          index..<index + width, with: [names[index..<index + width].joined(separator: ".")])
      }
      let name = names[index]
      let isLast = index == names.count - 1
      if let column = table.column(named: name) {
        if let target = table.references[column], table.isList(column) {
          steps.append(.forwardMany(listLinks(table, column: column, target: target)))
          many = true
          table = target
          continue
        }
        if let target = table.references[column] {
          steps.append(.forward(table, column: column, target: target))
          _ = resolvedColumn(table, column: column, target: target)
          table = target
          continue
        }
        guard isLast else {
          throw Failure(
            message:
              "'\(name)' is a plain column of table '\(table.name)'; it cannot be followed by '.\(names[index + 1])' (declare it in refs to follow it)",
            offset: offset)
        }
        // A list column is many values, as a related table is.
        if table.isList(column) {
          return .path(steps: steps, ending: .items(column), endTable: table, many: true)
        }
        return .path(steps: steps, ending: .column(column), endTable: table, many: many)
      }
      if let child = dataset.tableNamed[name] {
        let links = child.references.filter { $0.value === table }.map(\.key).sorted()
        guard links.count == 1, let link = links.first else {
          let reason =
            links.isEmpty
            ? "table '\(name)' has no reference to table '\(table.name)'"
            : "table '\(name)' refers to '\(table.name)' through several columns (\(links.map { child.header[$0] }.joined(separator: ", ")))"
          throw Failure(message: reason, offset: offset)
        }
        steps.append(.reverse(reverseIndex(child: child, column: link, parent: table)))
        many = true
        table = child
        continue
      }
      let columns = table.header.joined(separator: ", ")
      throw Failure(
        message: "table '\(table.name)' has no column or related table '\(name)' (columns: \(columns))",
        offset: offset)
    }
    return .path(steps: steps, ending: .record, endTable: table, many: many)
  }

  /// How many names, two or more, form one column of `table` when joined
  /// with dots; nil when none do.
  static func dottedColumnWidth(_ names: ArraySlice<String>, in table: Table) -> Int? {
    guard names.count > 1 else { return nil }
    for width in stride(from: names.count, through: 2, by: -1) {
      let candidate = names.prefix(width).joined(separator: ".")
      if table.column(named: candidate) != nil { return width }
    }
    return nil
  }

  func listLinks(_ table: Table, column: Int, target: Table) -> ListLinks {
    let key = "\(table.name)\u{1}\(column)"
    if let links = listLinks[key] { return links }
    let links = ListLinks(table: table, column: column, target: target)
    listLinks[key] = links
    return links
  }

  func reverseIndex(child: Table, column: Int, parent: Table) -> ReverseIndex {
    let key = "\(child.name)\u{1}\(column)"
    if let index = reverseIndexes[key] { return index }
    let index = ReverseIndex(child: child, column: column, parent: parent)
    reverseIndexes[key] = index
    return index
  }

  @discardableResult
  func resolvedColumn(_ table: Table, column: Int, target: Table) -> [Int32] {
    if let existing = resolved[ObjectIdentifier(table)]?[column] { return existing }
    let values = table.columns[column]
    var rows = [Int32](repeating: -1, count: values.count)
    for row in 0..<values.count {
      if let targetRow = target.rowForKey[values[row]] { rows[row] = Int32(targetRow) }
    }
    resolved[ObjectIdentifier(table), default: [:]][column] = rows
    return rows
  }
}
