/// The checked arithmetic of field expressions: every result is a finite
/// number, every count a whole number in range. A fault is reported at the
/// expression's place in the config, never a trap or a "nan" on a page.
enum Arithmetic {
  struct Fault: Error, Equatable {
    var message: String
  }

  /// The largest count `limit`, `top` and `round` accept.
  static let maxCount = 1_000_000

  /// Which argument of a function is a count.
  static let countArgument: [String: Int] = ["limit": 1, "top": 1, "round": 1, "thousands": 1]

  static func apply(_ op: Character, _ a: Double, _ b: Double) -> Result<Double, Fault> {
    let result: Double
    switch op {
    case "+": result = a + b
    case "-": result = a - b
    case "*": result = a * b
    default:
      guard b != 0 else { return .failure(Fault(message: "division by zero")) }
      result = a / b
    }
    guard result.isFinite else {
      return .failure(
        Fault(message: "the result of \(Value.format(a)) \(op) \(Value.format(b)) is too large"))
    }
    return .success(result)
  }

  /// Why `value` cannot be the count argument of `function`, if it cannot.
  static func checkCount(_ value: Double, function: String) -> String? {
    let upper = function == "round" ? 15 : function == "thousands" ? 9 : maxCount
    guard value.isFinite, value.rounded() == value, value >= 0, value <= Double(upper) else {
      return "\(function)() needs a whole number from 0 to \(upper), not \(Value.format(value))"
    }
    return nil
  }

  /// A number as a whole `Int64` for printing, if it fits.
  static func whole(_ value: Double) -> Int64? {
    guard value.isFinite, abs(value) < 9.0e18 else { return nil }
    return Int64(value.rounded())
  }
}
