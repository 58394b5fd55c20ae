import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// One connection to a PostgreSQL server, used from the build's ordinary
/// (synchronous) code: each statement waits on postgres-nio's future on
/// the calling thread, so no task of the build's cooperative pool is ever
/// blocked. The only place a connection is opened.
final class PostgresSession {
  let connection: PostgresConnection

  /// Quiet: every failure is reported as a diagnostic, with its place.
  static let logger: Logger = {
    var logger = Logger(label: "generate.postgres")
    logger.logLevel = .critical
    return logger
  }()

  /// Connects, or throws `Failure` with a reason that never holds the
  /// password.
  init(_ url: PostgresURL, password: String?) throws {
    let tls: PostgresConnection.Configuration.TLS
    do {
      switch url.tls {
      case .disable: tls = .disable
      case .prefer:
        // As libpq's `prefer`: encrypted if the server offers it, the
        // certificate unchecked (it guards against listening, not against
        // an impostor); `require` checks it.
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .none
        tls = .prefer(try NIOSSLContext(configuration: configuration))
      case .require:
        tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
      }
    } catch {
      throw Failure(reason: "cannot set up TLS: \(error)")
    }
    var configuration = PostgresConnection.Configuration(
      host: url.host, port: url.port, username: url.user, password: password, database: url.database, tls: tls
    )
    configuration.options.connectTimeout = .seconds(10)
    do {
      connection = try PostgresConnection.connect(
        on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration, id: 1,
        logger: Self.logger
      ).wait()
    } catch {
      throw Failure(error, hasPassword: password != nil)
    }
  }

  /// Runs one statement and waits for all its rows (a `FETCH` of one batch).
  func query(_ sql: String) throws -> PostgresQueryResult {
    do {
      return try connection.query(PostgresQuery(unsafeSQL: sql), logger: Self.logger).wait()
    } catch {
      throw Failure(error, hasPassword: true)
    }
  }

  func close() { try? connection.close().wait() }

  /// Why the server or the connection failed, in words, and where in the
  /// statement the server found the fault (1-based characters).
  struct Failure: Error {
    var reason: String
    var position: Int?
    var sqlState: String?

    init(reason: String) { self.reason = reason }

    init(_ error: any Error, hasPassword: Bool) {
      guard let error = error as? PSQLError else {
        reason = Self.describe(error)
        return
      }
      if let info = error.serverInfo, let message = info[.message] {
        sqlState = info[.sqlState]
        position = info[.position].flatMap { Int($0) }
        reason = message + (info[.hint].map { " (\($0))" } ?? "")
      } else if error.code == .authMechanismRequiresPassword {
        reason =
          hasPassword
          ? "the server asks for a password"
          : "the server asks for a password: set it in PGPASSWORD, or in the variable 'passwordEnv:' names"
      } else if let underlying = error.underlying {
        reason = Self.describe(underlying)
      } else {
        reason = "\(error.code)"
      }
    }

    /// A connection error as a person reads it: `connection refused`.
    static func describe(_ error: any Error) -> String {
      if let error = error as? NIOConnectionError {
        if let first = error.connectionErrors.first { return describe(first.error) }
        if let failure = error.dnsAAAAError ?? error.dnsAError { return "cannot find the host: \(failure)" }
        return "cannot connect"
      }
      if let error = error as? IOError {
        return String(cString: strerror(error.errnoCode)).lowercased()
      }
      if error is ChannelError { return "the connection failed (\(error))" }
      return "\(error)"
    }
  }
}
