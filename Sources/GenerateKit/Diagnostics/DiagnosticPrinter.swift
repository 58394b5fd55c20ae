/// The one way diagnostics are shown, by `generate build` and by the
/// preview server alike: compiler-style lines, at most `perFile` for one
/// file (a broken CSV can fault on every row) and `total` in all, with a
/// count of what was left out.
public struct DiagnosticPrinter: Sendable {
  public var perFile = 20
  public var total = 100

  public init() {}

  public func lines(for diagnostics: [Diagnostic]) -> [String] {
    var lines: [String] = []
    var shownPerFile: [String: Int] = [:]
    var hiddenPerFile: [String: Int] = [:]
    var hidden = 0
    for diagnostic in diagnostics {
      let file = diagnostic.location?.file ?? ""
      if lines.count >= total {
        hidden += 1
        continue
      }
      if shownPerFile[file, default: 0] >= perFile {
        hiddenPerFile[file, default: 0] += 1
        continue
      }
      shownPerFile[file, default: 0] += 1
      lines.append(diagnostic.description)
    }
    for (file, count) in hiddenPerFile.sorted(by: { $0.key < $1.key }) {
      lines.append(
        "\(file.isEmpty ? "" : file + ": ")note: \(count) more \(count == 1 ? "problem" : "problems") not shown"
      )
    }
    if hidden > 0 { lines.append("note: \(hidden) more \(hidden == 1 ? "problem" : "problems") not shown") }
    return lines
  }

  /// The closing line of a failed build: `generate: 2 errors and 1 warning
  /// while loading data; site/ was left unchanged`.
  public func summary(for error: DiagnosticsError, output: String) -> String {
    let errors = error.diagnostics.filter { $0.severity == .error }.count
    let warnings = error.diagnostics.filter { $0.severity == .warning }.count
    var counts: [String] = []
    if errors > 0 || warnings == 0 { counts.append(Self.count(errors, "error")) }
    if warnings > 0 {
      counts.append(Self.count(warnings, "warning") + (error.strict && errors == 0 ? " (--strict)" : ""))
    }
    let step = error.step.map { " while \($0.name.lowercased())" } ?? ""
    let folder = output.hasSuffix("/") ? output : output + "/"
    let kept = output.isEmpty ? "nothing was written" : "\(folder) was left unchanged"
    return "generate: \(counts.joined(separator: " and "))\(step); \(kept)"
  }

  /// `1 warning`, `3 errors`.
  public static func count(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
  }
}
