import Foundation

/// Where a PostgreSQL server is, as the config's `postgres:` URL says:
/// `postgres://user@host:port/database`, with `?sslmode=disable`,
/// `prefer` (the default) or `require`.
///
/// The URL holds no password: a config is a file people commit and share,
/// so one written there is refused (without printing it), and the password
/// is read from an environment variable instead — `passwordEnv:` names
/// it, else `PGPASSWORD`, as `psql` reads it. Errors print `shown`, which
/// never holds a password.
struct PostgresURL: Equatable {
  enum TLSMode: String {
    case disable, prefer, require
  }

  var user: String
  var host: String
  var port: Int
  var database: String
  var tls: TLSMode

  /// The URL as errors print it: no password, no parameters.
  var shown: String { "postgres://\(user)@\(host):\(port)/\(database)" }

  /// A URL's text is a PostgreSQL URL (what `init` checks before it takes
  /// an argument for a server rather than a file).
  static func looksLikeOne(_ text: String) -> Bool {
    text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
  }

  /// The parsed URL, or why it cannot be used (never echoing a password).
  static func parse(_ text: String) -> Result<PostgresURL, Problem> {
    guard looksLikeOne(text) else {
      return .failure(Problem("must be a URL such as postgres://user@localhost:5432/database"))
    }
    guard let parts = URLComponents(string: text) else {
      return .failure(Problem("is not a URL that can be read (postgres://user@host:port/database)"))
    }
    if parts.password != nil {
      return .failure(
        Problem(
          "holds a password; leave it out of the config and set it in the environment (PGPASSWORD, or the variable 'passwordEnv:' names)"
        ))
    }
    guard let host = parts.host, !host.isEmpty else {
      return .failure(Problem("names no host (postgres://user@host:port/database)"))
    }
    var tls = TLSMode.prefer
    for item in parts.queryItems ?? [] {
      guard item.name == "sslmode", let value = item.value, let mode = TLSMode(rawValue: value) else {
        return .failure(
          Problem("takes one parameter, sslmode=disable, prefer or require; '\(item.name)' is not known"))
      }
      tls = mode
    }
    let user = parts.user.flatMap { $0.isEmpty ? nil : $0 } ?? "postgres"
    let path = parts.path.hasPrefix("/") ? String(parts.path.dropFirst()) : parts.path
    return .success(
      PostgresURL(
        user: user, host: host, port: parts.port ?? 5432, database: path.isEmpty ? user : path, tls: tls))
  }

  struct Problem: Error, Equatable {
    var reason: String
    init(_ reason: String) { self.reason = reason }
  }
}
