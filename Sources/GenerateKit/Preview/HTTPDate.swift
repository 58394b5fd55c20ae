/// The one date format HTTP servers send (IMF-fixdate, RFC 9110 §5.6.7):
/// `Sun, 06 Nov 1994 08:49:37 GMT`.
///
/// Done by hand with civil-calendar arithmetic because `DateFormatter` is a
/// locale-aware class that is neither cheap nor obviously safe to share
/// between request tasks.
enum HTTPDate {
  private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  static func format(secondsSince1970 seconds: Int64) -> String {
    let days = floorDivide(seconds, 86_400)
    let secondOfDay = seconds - days * 86_400
    let (year, month, day) = civil(fromDays: days)
    let weekday = weekdays[Int(((days % 7) + 7) % 7)]
    return "\(weekday), \(twoDigits(day)) \(months[Int(month) - 1]) \(year) "
      + "\(twoDigits(secondOfDay / 3600)):\(twoDigits(secondOfDay % 3600 / 60)):\(twoDigits(secondOfDay % 60)) GMT"
  }

  /// Reads an IMF-fixdate; the obsolete RFC 850 and asctime forms give nil,
  /// which a conditional request treats as "no condition".
  static func parse(_ text: String) -> Int64? {
    let parts = text.split(separator: " ")
    guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","), parts[5] == "GMT",
      let day = Int64(parts[1]), parts[1].count == 2,
      let monthIndex = months.firstIndex(of: String(parts[2])),
      let year = Int64(parts[3]), parts[3].count == 4
    else { return nil }
    let clock = parts[4].split(separator: ":")
    guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
      let hour = Int64(clock[0]), let minute = Int64(clock[1]), let second = Int64(clock[2]),
      (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
    else { return nil }
    let days = days(fromCivil: year, Int64(monthIndex + 1), day)
    return days * 86_400 + hour * 3600 + minute * 60 + second
  }

  private static func twoDigits(_ value: Int64) -> String {
    value < 10 ? "0\(value)" : "\(value)"
  }

  static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
    a >= 0 ? a / b : (a - b + 1) / b
  }

  // Howard Hinnant's days-from-civil algorithms, proleptic Gregorian calendar
  // (also how `PostgresText` prints PostgreSQL dates).
  static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
    let z = days + 719_468
    let era = floorDivide(z, 146_097)
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = floorDivide(shiftedYear, 400)
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}
