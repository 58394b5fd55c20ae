import Foundation
import Yams

/// A table read from PostgreSQL: `postgres:` (a URL, checked here so a
/// mistake is an error at its line before any connection), `table:` or
/// `query:`, and `passwordEnv:`.
extension NodeReader {
  mutating func postgresSource(
    _ server: SiteConfig.Located<String>, table: SiteConfig.Located<String>?,
    query: SiteConfig.Located<String>?,
    pairs: [String: (key: Node, value: Node)], node: Node, what: String
  ) -> SiteConfig.Table.Source? {
    for extra in ["path", "separator"] where pairs[extra] != nil {
      if let pair = pairs[extra] { fail(pair.key, "'\(extra)' in \(what) belongs to a file ('file:')") }
    }
    if case .failure(let problem) = PostgresURL.parse(server.value), let pair = pairs["postgres"] {
      fail(pair.value, "postgres in \(what) \(problem.reason)")
      return nil
    }
    let passwordEnv = located(pairs, "passwordEnv", what: what)
    if let passwordEnv, !Self.isVariableName(passwordEnv.value), let pair = pairs["passwordEnv"] {
      fail(pair.value, "passwordEnv in \(what) must name an environment variable, as in PGPASSWORD")
    }
    let read: SiteConfig.Table.Postgres.Read
    switch (table, query) {
    case (let table?, nil): read = .table(table)
    case (nil, let query?):
      if query.value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, let pair = pairs["query"] {
        fail(pair.value, "query in \(what) is empty")
      }
      read = .query(query)
    case (_?, _?):
      fail(node, "\(what) has both 'table' and 'query'; choose one")
      return nil
    case (nil, nil):
      fail(
        node, "\(what) reads a PostgreSQL server: it needs 'table' (a table or view) or 'query' (a SELECT)")
      return nil
    }
    return .postgres(.init(url: server, read: read, passwordEnv: passwordEnv))
  }

  /// Letters, digits and `_`, not starting with a digit: what a shell exports.
  static func isVariableName(_ text: String) -> Bool {
    guard let first = text.utf8.first, !(48...57).contains(first) else { return false }
    return text.utf8.allSatisfy {
      ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95
    }
  }
}
