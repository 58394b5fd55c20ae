import Foundation
import NIOCore
import PostgresNIO
import Testing

@testable import GenerateKit

/// What needs no server: the config's URL, the binary values decoded by
/// hand, and the build record's refusal to fingerprint a server.
@Suite struct PostgresURLTests {
  @Test func aURLGivesTheServerAndDefaultsAsPsqlWould() throws {
    #expect(
      try PostgresURL.parse("postgres://reader@db.example.org:6543/music?sslmode=require").get()
        == PostgresURL(user: "reader", host: "db.example.org", port: 6543, database: "music", tls: .require))
    #expect(
      try PostgresURL.parse("postgresql://localhost").get()
        == PostgresURL(user: "postgres", host: "localhost", port: 5432, database: "postgres", tls: .prefer))
    #expect(throws: PostgresURL.Problem.self) {
      try PostgresURL.parse("postgres://a@h/db?sslmode=maybe").get()
    }
    #expect(throws: PostgresURL.Problem.self) { try PostgresURL.parse("postgres:///db").get() }
  }

  @Test func aPasswordInTheURLIsRefusedAndNotRepeated() {
    guard case .failure(let problem) = PostgresURL.parse("postgres://me:s3cret-word@h/db") else {
      Issue.record("a URL with a password was taken")
      return
    }
    #expect(!problem.reason.contains("s3cret-word"))
    #expect(
      PostgresURL(user: "me", host: "h", port: 1, database: "d", tls: .prefer).shown == "postgres://me@h:1/d")
  }

  /// `numeric` on the wire: digit count, weight, sign, scale, base-10,000 digits.
  func numeric(_ weight: Int16, _ sign: UInt16, _ scale: Int16, _ digits: [Int16]) -> String {
    var buffer = ByteBuffer()
    buffer.writeInteger(Int16(digits.count))
    buffer.writeInteger(weight)
    buffer.writeInteger(sign)
    buffer.writeInteger(scale)
    for digit in digits { buffer.writeInteger(digit) }
    guard case .success(let text) = PostgresText.text(buffer, type: .numeric) else { return "unreadable" }
    return text
  }

  @Test func numericKeepsEveryDigitAndItsScale() {
    #expect(numeric(0, 0, 2, [1, 5000]) == "1.50")
    #expect(numeric(0, 0, 0, []) == "0")
    #expect(numeric(-1, 0x4000, 6, [1, 2300]) == "-0.000123")
    #expect(numeric(1, 0, 0, [12, 3456]) == "123456")
    #expect(numeric(2, 0, 1, [1, 0, 0, 5000]) == "100000000.5")
    #expect(numeric(0, 0xC000, 0, []) == "NaN")
  }

  @Test func datesAndTimesPrintAsPsqlPrintsThem() {
    #expect(PostgresText.date(days: 0) == "2000-01-01")
    #expect(PostgresText.date(days: -1) == "1999-12-31")
    #expect(PostgresText.date(days: -711_857) == "0051-01-01")
    #expect(PostgresText.timestamp(86_400_000_000 + 3_723_000_000 + 250_000) == "2000-01-02 01:02:03.25")
    #expect(PostgresText.timestamp(-1) == "1999-12-31 23:59:59.999999")
  }

  @Test func aBuildFromAServerIsNeverFingerprinted() throws {
    let fixture = try SourceFixture()
    defer { fixture.remove() }
    try fixture.write(
      "site.yml",
      """
      title: T
      tables:
        t: { postgres: "postgres://reader@127.0.0.1:1/db", table: t }
      collections:
        - { id: c, table: t, title: name }

      """)
    var options = BuildOptions()
    options.configPath = fixture.path("site.yml")
    #expect(BuildRecord.inputs(for: options) == nil)
  }
}
