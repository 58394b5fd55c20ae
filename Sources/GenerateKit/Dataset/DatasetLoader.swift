import Foundation

/// All tables of a site, loaded and cross-checked: unique keys, and every
/// reference pointing at a record that exists.
public struct Dataset: Sendable {
  public var tables: [Table]
  public var tableNamed: [String: Table]

  /// Drops the key → row dictionaries once every reference has been
  /// resolved (the expressions are compiled): they are the largest thing a
  /// build keeps that nothing reads afterwards.
  func releaseKeyIndexes() {
    for table in tables { table.rowForKey = [:] }
  }
}

/// Loads the tables a config declares. Problems are collected across all
/// files (up to a limit per file) so one run shows every fault.
public struct DatasetLoader {
  /// How many errors one file may report before the rest are summarised.
  static let errorsPerFile = 20

  public init() {}

  public func load(_ config: SiteConfig) throws -> Dataset {
    var diagnostics: [Diagnostic] = []
    var tables: [Table] = []
    var byName: [String: Table] = [:]
    var seenLocation: [String: SourceLocation] = [:]

    for spec in config.tables where spec.file != nil {
      if let first = seenLocation[spec.name] {
        diagnostics.append(.error(at: spec.location, "duplicate table '\(spec.name)' (first declared at \(first))"))
        continue
      }
      seenLocation[spec.name] = spec.location
      do {
        let table = try loadFile(spec, config: config)
        tables.append(table)
        byName[spec.name] = table
      } catch let error as DiagnosticsError {
        diagnostics += error.diagnostics
      }
    }
    for spec in config.tables where spec.groupBy != nil {
      guard let groupBy = spec.groupBy else { continue }
      guard let source = byName[groupBy.table] else {
        diagnostics.append(.error(at: spec.location, "table '\(spec.name)' groups table '\(groupBy.table)', which is not declared"))
        continue
      }
      guard let column = source.column(named: groupBy.column) else {
        diagnostics.append(.error(at: spec.location, "table '\(groupBy.table)' has no column '\(groupBy.column)' to group by"))
        continue
      }
      let table = group(source, by: column, name: spec.name)
      tables.append(table)
      byName[spec.name] = table
    }
    if !diagnostics.isEmpty { throw DiagnosticsError(diagnostics) }

    for spec in config.tables {
      guard let table = byName[spec.name] else { continue }
      for ref in spec.refs {
        guard let column = table.column(named: ref.value.column) else {
          diagnostics.append(.error(at: ref.location, "table '\(spec.name)' has no column '\(ref.value.column)'"))
          continue
        }
        guard let target = byName[ref.value.table] else {
          diagnostics.append(.error(at: ref.location, "refs of table '\(spec.name)' name table '\(ref.value.table)', which is not declared"))
          continue
        }
        table.references[column] = target
        diagnostics += checkReferences(table, column: column, target: target)
      }
    }
    if !diagnostics.isEmpty { throw DiagnosticsError(diagnostics) }
    return Dataset(tables: tables, tableNamed: byName)
  }

  func loadFile(_ spec: SiteConfig.Table, config: SiteConfig) throws -> Table {
    guard let file = spec.file else { throw DiagnosticsError([]) }
    let fullPath = URL(fileURLWithPath: file, relativeTo: URL(fileURLWithPath: config.directory + "/")).path
    let shownPath = Self.displayPath(fullPath)
    guard let data = FileManager.default.contents(atPath: fullPath) else {
      throw DiagnosticsError(.error(at: spec.location, "data file '\(shownPath)' of table '\(spec.name)' does not exist or cannot be read"))
    }
    let bytes = [UInt8](data)
    guard file.hasSuffix(".csv") else {
      throw DiagnosticsError(.error(at: spec.location, "data file '\(file)' must be a .csv file"))
    }
    let reader = CSVReader(bytes: bytes, file: shownPath)
    var table: Table?
    var diagnostics: [Diagnostic] = []
    var firstLineOfKey: [String: Int32] = [:]
    try reader.forEachRow { row in
      guard let current = table else {
        let header = row.fields
        var keyColumn: Int?
        if let key = spec.key {
          keyColumn = header.firstIndex(of: key)
          if keyColumn == nil {
            throw DiagnosticsError(.error(
              at: SourceLocation(file: shownPath, line: 1, column: 1),
              "table '\(spec.name)' has no key column '\(key)' (the header has: \(header.joined(separator: ", ")))"))
          }
        }
        table = Table(name: spec.name, file: shownPath, header: header, keyColumn: keyColumn)
        return
      }
      let rowNumber = current.count
      guard row.fields.count == current.header.count else {
        if diagnostics.count < Self.errorsPerFile {
          diagnostics.append(.error(
            at: SourceLocation(
              file: shownPath, line: row.line,
              column: row.columns.count > current.header.count ? row.columns[current.header.count] : (row.columns.last ?? 1)),
            "record has \(row.fields.count) fields; the header has \(current.header.count)"))
        }
        return
      }
      for (column, value) in row.fields.enumerated() {
        current.columns[column].append(value)
        current.fieldColumns[column].append(Int32(row.columns[column]))
      }
      current.lines.append(Int32(row.line))
      if let keyColumn = current.keyColumn {
        let key = row.fields[keyColumn]
        let location = SourceLocation(file: shownPath, line: row.line, column: row.columns[keyColumn])
        if key.isEmpty {
          if diagnostics.count < Self.errorsPerFile {
            diagnostics.append(.error(at: location, "record has an empty id ('\(current.header[keyColumn])')"))
          }
        } else if let first = firstLineOfKey[key] {
          if diagnostics.count < Self.errorsPerFile {
            diagnostics.append(.error(at: location, "duplicate id '\(key)' in table '\(spec.name)' (first on line \(first))"))
          }
        } else {
          firstLineOfKey[key] = Int32(row.line)
          current.rowForKey[key] = rowNumber
        }
      }
    }
    guard let table else {
      throw DiagnosticsError(.error(at: SourceLocation(file: shownPath), "data file is empty; it needs a header row"))
    }
    if !diagnostics.isEmpty { throw DiagnosticsError(diagnostics) }
    if table.keyColumn == nil {
      for row in 0..<table.count { table.rowForKey[String(row + 1)] = row }
    }
    return table
  }

  func checkReferences(_ table: Table, column: Int, target: Table) -> [Diagnostic] {
    var diagnostics: [Diagnostic] = []
    let values = table.columns[column]
    for row in 0..<values.count {
      let value = values[row]
      if value.isEmpty || target.rowForKey[value] != nil { continue }
      if diagnostics.count == Self.errorsPerFile { break }
      let record = table.keyColumn == nil ? "" : "record \(table.key(ofRow: row)): "
      diagnostics.append(.error(
        at: table.location(row: row, column: column),
        "\(record)\(table.header[column]) refers to \(target.name) '\(value)', which does not exist"))
    }
    return diagnostics
  }

  /// A table of the distinct values of one column, keyed by that value;
  /// the other columns come from the first row of each group.
  func group(_ source: Table, by column: Int, name: String) -> Table {
    let table = Table(name: name, file: source.file, header: source.header, keyColumn: column)
    for row in 0..<source.count {
      let key = source.columns[column][row]
      if key.isEmpty || table.rowForKey[key] != nil { continue }
      table.rowForKey[key] = table.count
      for c in 0..<source.header.count {
        table.columns[c].append(source.columns[c][row])
        table.fieldColumns[c].append(source.fieldColumns[c][row])
      }
      table.lines.append(source.lines[row])
    }
    return table
  }

  /// Paths under the working directory print relative to it, as compilers do.
  static func displayPath(_ path: String) -> String {
    let cwd = FileManager.default.currentDirectoryPath + "/"
    let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
    return standardized.hasPrefix(cwd) ? String(standardized.dropFirst(cwd.count)) : standardized
  }
}
