import Foundation
import NIOCore
import PostgresNIO

/// One PostgreSQL value as cell text, as `psql` prints it — except that
/// numbers print as the expression language prints them (like SQLite's),
/// so a table copied from CSV or SQLite into PostgreSQL builds the same
/// site.
///
/// postgres-nio receives every value in PostgreSQL's binary format, so
/// each readable type is decoded here: booleans (`true`, `false`),
/// integers, floats, `numeric` (every digit and the declared scale, as
/// written: `1.50`), text of every kind, enums, `json`/`jsonb`, `uuid`,
/// `date`, `timestamp` and `timestamptz` (in UTC, `+00`). Any other type
/// (`bytea`, `point`, arrays, ranges…) is an error naming the column;
/// a query can cast it (`location::text`).
enum PostgresText {
  /// The types read as UTF-8 text as they arrive (`"char"` is one byte).
  static let textTypes: Set<PostgresDataType> = [.text, .varchar, .bpchar, .name, .char, .json]

  static let readable: Set<PostgresDataType> =
    textTypes.union([
      .bool, .int2, .int4, .int8, .oid, .float4, .float8, .numeric, .jsonb, .uuid, .date, .timestamp,
      .timestamptz,
    ])

  /// The text of a value of a readable type (or of an enum: `asText`);
  /// nil bytes (SQL NULL) read as empty.
  static func text(_ bytes: ByteBuffer?, type: PostgresDataType, asText: Bool = false) -> Result<
    String, TableBuilder.CellProblem
  > {
    guard var buffer = bytes else { return .success("") }
    func fixed<T: FixedWidthInteger>(_: T.Type) -> T? {
      buffer.readableBytes == MemoryLayout<T>.size ? buffer.readInteger(as: T.self) : nil
    }
    let malformed = Result<String, TableBuilder.CellProblem>.failure(
      TableBuilder.CellProblem(reason: "holds a malformed \(type) value"))
    if asText || textTypes.contains(type) {
      return utf8(buffer.readableBytesView)
    }
    switch type {
    case .bool:
      guard let byte = fixed(UInt8.self) else { return malformed }
      return .success(byte == 0 ? "false" : "true")
    case .int2: return fixed(Int16.self).map { .success(String($0)) } ?? malformed
    case .int4: return fixed(Int32.self).map { .success(String($0)) } ?? malformed
    case .int8: return fixed(Int64.self).map { .success(String($0)) } ?? malformed
    case .oid: return fixed(UInt32.self).map { .success(String($0)) } ?? malformed
    case .float4:
      guard let bits = fixed(UInt32.self) else { return malformed }
      // Through Float's shortest text, so a real 0.99 reads `0.99`, not
      // the double nearest the float (0.9900000095367432).
      return number(Double(String(Float(bitPattern: bits))) ?? .nan)
    case .float8:
      guard let bits = fixed(UInt64.self) else { return malformed }
      return number(Double(bitPattern: bits))
    case .numeric: return numeric(&buffer).map { .success($0) } ?? malformed
    case .jsonb:
      guard buffer.readInteger(as: UInt8.self) == 1 else { return malformed }
      return utf8(buffer.readableBytesView)
    case .uuid:
      guard buffer.readableBytes == 16 else { return malformed }
      let hex = buffer.readableBytesView.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }
      return .success(
        [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(
          separator: "-"))
    case .date:
      guard let days = fixed(Int32.self) else { return malformed }
      if days == .max || days == .min { return .success(days == .max ? "infinity" : "-infinity") }
      return .success(date(days: Int64(days)))
    case .timestamp, .timestamptz:
      guard let micros = fixed(Int64.self) else { return malformed }
      if micros == .max || micros == .min { return .success(micros == .max ? "infinity" : "-infinity") }
      return .success(timestamp(micros) + (type == .timestamptz ? "+00" : ""))
    default:
      return .failure(TableBuilder.CellProblem(reason: "has type \(type)"))
    }
  }

  static func utf8(_ bytes: ByteBufferView) -> Result<String, TableBuilder.CellProblem> {
    let text =
      bytes.withContiguousStorageIfAvailable { String(validating: $0, as: UTF8.self) }
      ?? String(validating: Array(bytes), as: UTF8.self)
    guard let text else {
      return .failure(TableBuilder.CellProblem(reason: "holds text that is not valid UTF-8"))
    }
    return .success(text)
  }

  static func number(_ value: Double) -> Result<String, TableBuilder.CellProblem> {
    guard value.isFinite else {
      return .failure(
        TableBuilder.CellProblem(reason: "holds \(value), which is not a number the site can show"))
    }
    return .success(Value.format(value))
  }

  /// PostgreSQL's `numeric` wire format: digit count, weight (of the first
  /// base-10,000 digit), sign, display scale, then the base-10,000 digits.
  static func numeric(_ buffer: inout ByteBuffer) -> String? {
    guard let count = buffer.readInteger(as: Int16.self), let weight = buffer.readInteger(as: Int16.self),
      let sign = buffer.readInteger(as: UInt16.self), let scale = buffer.readInteger(as: Int16.self),
      count >= 0, scale >= 0, buffer.readableBytes == Int(count) * 2
    else { return nil }
    switch sign {
    case 0xC000: return "NaN"
    case 0xD000: return "Infinity"
    case 0xF000: return "-Infinity"
    default: break
    }
    var digits: [Int] = []
    for _ in 0..<count { digits.append(Int(buffer.readInteger(as: Int16.self) ?? 0)) }
    func digit(_ index: Int) -> Int { index >= 0 && index < digits.count ? digits[index] : 0 }
    func padded(_ value: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: 4 - text.count) + text
    }
    var text = sign == 0x4000 ? "-" : ""
    if weight < 0 {
      text += "0"
    } else {
      text += String(digit(0))
      if weight > 0 { for index in 1...Int(weight) { text += padded(digit(index)) } }
    }
    if scale > 0 {
      var fraction = ""
      var index = Int(weight) + 1
      while fraction.count < Int(scale) {
        fraction += padded(digit(index))
        index += 1
      }
      text += "." + fraction.prefix(Int(scale))
    }
    return text
  }

  /// Days since 2000-01-01 as `YYYY-MM-DD`.
  static func date(days: Int64) -> String {
    // 10,957 days from 1970-01-01 to 2000-01-01.
    let (year, month, day) = HTTPDate.civil(fromDays: days + 10_957)
    return
      "\(year < 1000 ? String(repeating: "0", count: 4 - String(year).count) : "")\(year)-\(two(month))-\(two(day))"
  }

  /// Microseconds since 2000-01-01 00:00 as `YYYY-MM-DD HH:MM:SS[.ffffff]`.
  static func timestamp(_ micros: Int64) -> String {
    let perDay: Int64 = 86_400_000_000
    let days = HTTPDate.floorDivide(micros, perDay)
    let ofDay = micros - days * perDay
    let seconds = ofDay / 1_000_000
    var text = date(days: days) + " \(two(seconds / 3600)):\(two(seconds % 3600 / 60)):\(two(seconds % 60))"
    let fraction = ofDay % 1_000_000
    if fraction > 0 {
      var digits = String(fraction)
      digits = String(repeating: "0", count: 6 - digits.count) + digits
      while digits.hasSuffix("0") { digits.removeLast() }
      text += "." + digits
    }
    return text
  }

  static func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
